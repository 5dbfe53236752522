import type { ExtractionCandidate, VaultExtraction, VaultFieldType } from '@svc/contracts';

/** The columns of a candidate a wire view needs: never its ciphertext or wrapped key. */
export const CANDIDATE_VIEW_SELECT = {
  id: true,
  position: true,
  fieldName: true,
  type: true,
  masked: true,
  confidence: true,
  page: true,
  spanStart: true,
  spanEnd: true,
  status: true,
  savedAsName: true,
  savedAsVersion: true,
} as const;

export const EXTRACTION_VIEW_SELECT = {
  id: true,
  status: true,
  version: true,
  documentKind: true,
  uploadId: true,
  contentType: true,
  pages: true,
  characters: true,
  createdAt: true,
  expiresAt: true,
  reviewedAt: true,
  candidates: { select: CANDIDATE_VIEW_SELECT, orderBy: { position: 'asc' } },
} as const;

export interface CandidateViewRow {
  id: string;
  fieldName: string;
  type: string;
  masked: string;
  confidence: number;
  page: number;
  spanStart: number;
  spanEnd: number;
  status: string;
  savedAsName: string | null;
  savedAsVersion: number | null;
}

export interface ExtractionViewRow {
  id: string;
  status: string;
  version: number;
  documentKind: string;
  uploadId: string | null;
  contentType: string;
  pages: number;
  characters: number;
  createdAt: Date;
  expiresAt: Date;
  reviewedAt: Date | null;
  candidates: CandidateViewRow[];
}

/**
 * A pending extraction past its time shows `expired` before the sweep gets to it (its candidates
 * can no longer be reviewed: reviewExtraction refuses it the same way).
 */
export function effectiveStatus(
  row: Pick<ExtractionViewRow, 'status' | 'expiresAt'>,
  now: Date,
): VaultExtraction['status'] {
  if (row.status === 'pending' && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return row.status as VaultExtraction['status'];
}

function candidateView(row: CandidateViewRow): ExtractionCandidate {
  return {
    candidate_id: row.id,
    field_name: row.fieldName,
    type: row.type as VaultFieldType,
    masked_value: row.masked,
    confidence: row.confidence,
    page: row.page,
    span: { start: row.spanStart, end: row.spanEnd },
    status: row.status as ExtractionCandidate['status'],
    ...(row.savedAsName !== null && row.savedAsVersion !== null
      ? { saved_as: { name: row.savedAsName, version: row.savedAsVersion } }
      : {}),
  };
}

/** The extraction as every answer shows it: candidates masked, in document order. */
export function extractionView(row: ExtractionViewRow, now: Date): VaultExtraction {
  return {
    extraction_id: row.id,
    status: effectiveStatus(row, now),
    version: row.version,
    document: {
      kind: row.documentKind as 'text' | 'upload',
      ...(row.uploadId === null ? {} : { upload_id: row.uploadId }),
      content_type: row.contentType,
      pages: row.pages,
      characters: row.characters,
    },
    candidates: row.candidates.map(candidateView),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    ...(row.reviewedAt === null ? {} : { reviewed_at: row.reviewedAt.toISOString() }),
  };
}
