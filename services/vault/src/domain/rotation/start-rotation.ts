import type { VaultRotationState } from '@svc/contracts';
import { isUniqueViolation, type PrismaClient } from '@svc/db';
import type { KeyEncryptionKeys } from '@svc/vault-crypto';
import { dataKeysNotAt } from './data-keys';
import { rotationState } from './rotation-state';

/** Adds the `vault.rewrap` job (deduplicated by `jobId` while BullMQ keeps it). */
export type EnqueueRewrap = (target: number, jobId: string) => Promise<void>;

export interface StartRotationDeps {
  prisma: PrismaClient;
  keys: KeyEncryptionKeys;
  now: () => Date;
  enqueue: EnqueueRewrap;
}

/** One job id per run of a rotation row: a restart after failure gets a new one, a repeat the same. */
export function rewrapJobId(target: number, startedAt: Date): string {
  return `rewrap-v${target}-${startedAt.getTime()}`;
}

type RotationRow = { targetVersion: number; state: string; startedAt: Date };

async function createRow(deps: StartRotationDeps, target: number): Promise<RotationRow> {
  try {
    return await deps.prisma.vaultRotation.create({
      data: { targetVersion: target, state: 'running', startedAt: deps.now() },
    });
  } catch (err) {
    // Another start created it first: use theirs.
    if (!isUniqueViolation(err)) throw err;
    return deps.prisma.vaultRotation.findUniqueOrThrow({ where: { targetVersion: target } });
  }
}

/** A finished rotation with work left (failed, or rows at another version since): run it again. */
async function restartRow(deps: StartRotationDeps, row: RotationRow): Promise<RotationRow> {
  const startedAt = deps.now();
  // Conditional on the run read: of two concurrent restarts one wins, the other re-reads it.
  await deps.prisma.vaultRotation.updateMany({
    where: { targetVersion: row.targetVersion, state: row.state, startedAt: row.startedAt },
    data: { state: 'running', rewrapped: 0, error: null, finishedAt: null, startedAt },
  });
  return deps.prisma.vaultRotation.findUniqueOrThrow({ where: { targetVersion: row.targetVersion } });
}

/**
 * `rpc.vault.startRotation`: starts (or continues) the re-wrap of every data key to this process's
 * current key version. Idempotent per version: a running rotation gets its job added again under
 * the same job id (BullMQ adds nothing while it exists; a job lost with Redis comes back), a
 * completed one with nothing left is only reported; a failed one, or a completed one with rows on
 * other versions since, restarts (new run, new job id).
 */
export async function startRotation(deps: StartRotationDeps): Promise<VaultRotationState> {
  const target = deps.keys.currentVersion;
  let row: RotationRow | null = await deps.prisma.vaultRotation.findUnique({
    where: { targetVersion: target },
  });
  if (!row) row = await createRow(deps, target);
  else if (
    row.state !== 'running' &&
    (row.state === 'failed' || (await dataKeysNotAt(deps.prisma, target)) > 0)
  ) {
    row = await restartRow(deps, row);
  }
  if (row.state === 'running') await deps.enqueue(target, rewrapJobId(target, row.startedAt));
  return rotationState(deps);
}
