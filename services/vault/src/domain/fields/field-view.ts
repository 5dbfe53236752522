import type { VaultField, VaultFieldSource, VaultFieldType } from '@svc/contracts';

/** The columns of `vault.fields` a wire view needs (never the ciphertext or the wrapped key). */
export interface FieldRow {
  name: string;
  type: string;
  masked: string;
  version: number;
  keyVersion: number;
  sourceKind: string;
  sourceExtractionId: string | null;
  sourceCandidateId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Prisma `select` of FieldRow: lists and saves never read the encrypted columns back. */
export const FIELD_ROW_SELECT = {
  name: true,
  type: true,
  masked: true,
  version: true,
  keyVersion: true,
  sourceKind: true,
  sourceExtractionId: true,
  sourceCandidateId: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** Where a saved value came from, as the domain passes it. */
export type FieldSource =
  | { kind: 'entered' }
  | { kind: 'extraction'; extractionId: string; candidateId: string };

function sourceView(row: FieldRow): VaultFieldSource {
  if (row.sourceKind === 'extraction' && row.sourceExtractionId && row.sourceCandidateId) {
    return { kind: 'extraction', extraction_id: row.sourceExtractionId, candidate_id: row.sourceCandidateId };
  }
  return { kind: 'entered' };
}

/** The field as every answer shows it: masked value only. */
export function fieldView(row: FieldRow): VaultField {
  return {
    name: row.name,
    // Written only from VaultFieldType values (saveField validates the type first).
    type: row.type as VaultFieldType,
    masked_value: row.masked,
    version: row.version,
    source: sourceView(row),
    key_version: row.keyVersion,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
