import type { VaultAuditPurpose } from '@svc/contracts';
import type { VaultTx } from './deps';

/** One decryption of one value, as the audit trail records it (never the value). */
export interface DecryptionRecord {
  clientId: string;
  purpose: VaultAuditPurpose;
  /** The field (fill) or the candidate's proposed/target field (approve). */
  field: string;
  /** The key version that unwrapped the value's data key. */
  keyVersion: number;
  /** The document (fill) or extraction (approve) the decryption served. */
  subjectId: string;
  /** `X-Request-Id` of the API request that caused it. */
  requestId: string;
}

/**
 * Writes one audit line per decrypted value, in the caller's transaction: a decryption whose
 * transaction rolls back leaves no line, and one that commits cannot be missing its line.
 */
export async function recordDecryption(tx: VaultTx, record: DecryptionRecord): Promise<void> {
  await tx.vaultAuditEvent.create({
    data: {
      clientId: record.clientId,
      purpose: record.purpose,
      field: record.field,
      keyVersion: record.keyVersion,
      subjectId: record.subjectId,
      requestId: record.requestId,
    },
  });
}
