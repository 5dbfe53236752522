import { z } from 'zod';
import { DateTime, Uuid } from '../common';
import { UploadId } from '../uploads';
import { VAULT_VALUE_MAX_CHARACTERS, VaultFieldName, VaultFieldType } from './field-types';
import { VaultField } from './fields';

/** Longest document text sent in the body of `POST /api/vault/extractions` (characters). */
export const VAULT_DOCUMENT_TEXT_MAX_CHARACTERS = 200_000;
/** Most candidates one extraction proposes (the rest are dropped, lowest confidence first). */
export const VAULT_MAX_CANDIDATES = 200;
/**
 * The upload target of vault documents and templates (`POST /api/capabilities/vault-document/upload-session`):
 * not a capability, a reserved name the uploads service knows (docs/decisions.md "The vault").
 */
export const VAULT_DOCUMENT_UPLOAD_SLUG = 'vault-document';
export const VAULT_DOCUMENT_CONTENT_TYPES = [
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/html',
] as const;
/** bytes: largest vault document or template upload. */
export const VAULT_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** A document: text in the body, or an upload (PDF or text) of the `vault-document` target. */
export const VaultDocumentSource = z.union([
  z.object({ text: z.string().min(1).max(VAULT_DOCUMENT_TEXT_MAX_CHARACTERS) }).strict(),
  z.object({ upload_id: UploadId }).strict(),
]);
export type VaultDocumentSource = z.infer<typeof VaultDocumentSource>;

/** `POST /api/vault/extractions` (spec §4.19). */
export const CreateExtractionRequest = z.object({ document: VaultDocumentSource }).strict();
export type CreateExtractionRequest = z.infer<typeof CreateExtractionRequest>;

export const CandidateStatus = z.enum(['pending', 'approved', 'rejected']);
export const ExtractionStatus = z.enum(['pending', 'reviewed', 'expired']);

/** One proposed value: masked, with where it was found. */
export const ExtractionCandidate = z.object({
  candidate_id: Uuid,
  field_name: VaultFieldName,
  type: VaultFieldType,
  masked_value: z.string(),
  /** 0-1: how sure the extractor is (labelled lines score higher than bare patterns). */
  confidence: z.number().min(0).max(1),
  /** 1-based page; text documents are one page. */
  page: z.number().int().min(1),
  /** Unicode code points within that page's text: [start, end). */
  span: z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }),
  status: CandidateStatus,
  /** Once approved: the field it was saved to and that field's version then. */
  saved_as: z.object({ name: VaultFieldName, version: z.number().int().min(1) }).optional(),
});
export type ExtractionCandidate = z.infer<typeof ExtractionCandidate>;

export const VaultExtraction = z.object({
  extraction_id: Uuid,
  status: ExtractionStatus,
  /** +1 on every review: send it back as `expected_version` when reviewing. */
  version: z.number().int().min(1),
  document: z.object({
    kind: z.enum(['text', 'upload']),
    upload_id: UploadId.optional(),
    content_type: z.string(),
    pages: z.number().int().min(1),
    characters: z.number().int().min(0),
  }),
  candidates: z.array(ExtractionCandidate),
  created_at: DateTime,
  /** A pending extraction and its candidates are destroyed then. */
  expires_at: DateTime,
  reviewed_at: DateTime.optional(),
});
export type VaultExtraction = z.infer<typeof VaultExtraction>;

export const ExtractionResponse = z.object({ ok: z.literal(true), extraction: VaultExtraction });
export type ExtractionResponse = z.infer<typeof ExtractionResponse>;

/** `GET /api/vault/extractions` (spec §4.18): newest first. */
export const ListExtractionsQuery = z
  .object({
    status: ExtractionStatus.optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
export type ListExtractionsQuery = z.infer<typeof ListExtractionsQuery>;

export const ListExtractionsResponse = z.object({
  ok: z.literal(true),
  count: z.number().int().min(0),
  extractions: z.array(VaultExtraction),
});
export type ListExtractionsResponse = z.infer<typeof ListExtractionsResponse>;

export const ExtractionIdParams = z.object({ extraction_id: Uuid }).strict();

/** One reviewer decision about one candidate. */
export const CandidateDecision = z.discriminatedUnion('action', [
  z
    .object({
      candidate_id: Uuid,
      action: z.literal('approve'),
      /** Save under another name than proposed. */
      field_name: VaultFieldName.optional(),
      /** A corrected value (validated by the type), instead of the extracted one. */
      value: z
        .string()
        .min(1)
        .max(VAULT_VALUE_MAX_CHARACTERS * 4)
        .optional(),
      /** Another type than proposed. */
      type: VaultFieldType.optional(),
      /** Required when the target field exists: its current version (409 otherwise). */
      field_version: z.number().int().min(1).optional(),
    })
    .strict(),
  z.object({ candidate_id: Uuid, action: z.literal('reject') }).strict(),
]);
export type CandidateDecision = z.infer<typeof CandidateDecision>;

/**
 * `POST /api/vault/extractions/{extraction_id}/review`: decisions about some or all pending
 * candidates, applied together or not at all. 409 when the extraction is no longer at
 * `expected_version` or a target field changed; 404 for an unknown or another client's extraction.
 */
export const ReviewExtractionRequest = z
  .object({
    expected_version: z.number().int().min(1),
    decisions: z.array(CandidateDecision).min(1).max(200),
  })
  .strict();
export type ReviewExtractionRequest = z.infer<typeof ReviewExtractionRequest>;

/** The reviewed extraction and the fields its approvals saved. */
export const ReviewExtractionResponse = z.object({
  ok: z.literal(true),
  extraction: VaultExtraction,
  saved_fields: z.array(VaultField),
});
export type ReviewExtractionResponse = z.infer<typeof ReviewExtractionResponse>;
