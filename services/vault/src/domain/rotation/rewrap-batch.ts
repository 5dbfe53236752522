import type { PrismaClient } from '@svc/db';
import { candidateSubject, fieldSubject, type KeyEncryptionKeys, rewrap } from '@svc/vault-crypto';

/** One stored data key to move: where it is, and the bytes the conditional update expects. */
interface WrappedRow {
  table: 'field' | 'candidate';
  id: string;
  clientId: string;
  subject: string;
  wrappedKey: Uint8Array;
  keyVersion: number;
}

async function rowsNotAt(prisma: PrismaClient, target: number, limit: number): Promise<WrappedRow[]> {
  const fields = await prisma.vaultField.findMany({
    where: { keyVersion: { not: target } },
    orderBy: { id: 'asc' },
    take: limit,
    select: { id: true, clientId: true, name: true, wrappedKey: true, keyVersion: true },
  });
  const rows: WrappedRow[] = fields.map((row) => ({
    table: 'field',
    id: row.id,
    clientId: row.clientId,
    subject: fieldSubject(row.name),
    wrappedKey: row.wrappedKey,
    keyVersion: row.keyVersion,
  }));
  if (rows.length >= limit) return rows;
  const candidates = await prisma.vaultCandidate.findMany({
    where: { ciphertext: { not: null }, keyVersion: { not: null, notIn: [target] } },
    orderBy: { id: 'asc' },
    take: limit - rows.length,
    select: { id: true, clientId: true, extractionId: true, wrappedKey: true, keyVersion: true },
  });
  for (const row of candidates) {
    if (row.wrappedKey === null || row.keyVersion === null) continue;
    rows.push({
      table: 'candidate',
      id: row.id,
      clientId: row.clientId,
      subject: candidateSubject(row.extractionId, row.id),
      wrappedKey: row.wrappedKey,
      keyVersion: row.keyVersion,
    });
  }
  return rows;
}

export interface BatchResult {
  /** Rows found not at the target (0: the re-wrap is complete). */
  scanned: number;
  /** Rows this batch moved to the target (fewer when a concurrent writer changed some first). */
  rewrapped: number;
}

/**
 * Re-wraps up to `limit` data keys to `target` and adds the count to the rotation row, in one
 * transaction. Each update is conditional on the wrapped key read (same bytes, same version), so a
 * value updated meanwhile (new data key) or a row another runner moved first is left alone: two
 * runners never double-apply and a killed runner leaves only whole batches. Values' ciphertexts
 * are never read nor written. Throws VaultCryptoError when a data key does not open (its version
 * is not in the keyring, or the row is damaged): the caller fails the job, naming it.
 */
export async function rewrapBatch(
  deps: { prisma: PrismaClient; keys: KeyEncryptionKeys },
  target: number,
  limit: number,
): Promise<BatchResult> {
  const rows = await rowsNotAt(deps.prisma, target, limit);
  if (rows.length === 0) return { scanned: 0, rewrapped: 0 };
  const moved = await Promise.all(
    rows.map(async (row) => ({
      row,
      wrapped: await rewrap({
        kek: deps.keys,
        clientId: row.clientId,
        subject: row.subject,
        wrappedKey: row.wrappedKey,
        keyVersion: row.keyVersion,
        toVersion: target,
      }),
    })),
  );
  const rewrapped = await deps.prisma.$transaction(async (tx) => {
    let count = 0;
    for (const { row, wrapped } of moved) {
      const where = {
        id: row.id,
        keyVersion: row.keyVersion,
        wrappedKey: { equals: Buffer.from(row.wrappedKey) },
      };
      const data = { wrappedKey: wrapped.wrappedKey, keyVersion: wrapped.keyVersion };
      const result =
        row.table === 'field'
          ? await tx.vaultField.updateMany({ where, data })
          : // A candidate decided or expired meanwhile has no value left: its key stays gone.
            await tx.vaultCandidate.updateMany({ where: { ...where, ciphertext: { not: null } }, data });
      count += result.count;
    }
    await tx.vaultRotation.updateMany({
      where: { targetVersion: target },
      data: { rewrapped: { increment: count } },
    });
    return count;
  });
  return { scanned: rows.length, rewrapped };
}
