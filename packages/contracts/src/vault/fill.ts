import { z } from 'zod';
import { Artifact } from '../artifacts';
import { DateTime, Uuid } from '../common';
import { Filename, UploadId } from '../uploads';
import { VaultFieldName } from './field-types';

/** Longest inline template (characters). */
export const VAULT_TEMPLATE_TEXT_MAX_CHARACTERS = 200_000;

/** A template: an uploaded PDF form or text file (`vault-document` target), or inline text. */
export const FillTemplate = z.union([
  z.object({ upload_id: UploadId }).strict(),
  z
    .object({
      text: z.string().min(1).max(VAULT_TEMPLATE_TEXT_MAX_CHARACTERS),
      format: z.enum(['text', 'markdown', 'html']),
    })
    .strict(),
]);
export type FillTemplate = z.infer<typeof FillTemplate>;

/**
 * `POST /api/vault/fill-document` (spec §4.20): fills the template with the listed fields only; a
 * field the template asks for but the list does not allow is left empty and reported.
 */
export const FillDocumentRequest = z
  .object({
    template: FillTemplate,
    /** The vault fields this fill may use (and no other). */
    fields: z.array(VaultFieldName).min(1).max(200),
    /** Name of the filled document's artifact (default from the template). */
    filename: Filename.optional(),
  })
  .strict();
export type FillDocumentRequest = z.infer<typeof FillDocumentRequest>;

/** What the fill did with each name the template asked for. */
export const FillReport = z.object({
  /** Placed into the document. */
  filled: z.array(z.string()),
  /** Not a field of this vault: left empty. */
  unknown: z.array(z.string()),
  /** A vault field the request's `fields` did not allow: left empty. */
  not_allowed: z.array(z.string()),
  /** Allowed, but nothing to place: left empty. */
  empty: z.array(z.string()),
});
export type FillReport = z.infer<typeof FillReport>;

/** A filled document: a private artifact of the client, downloaded like run artifacts. */
export const VaultDocument = z.object({
  document_id: Uuid,
  created_at: DateTime,
  /** The document and its artifact are deleted then. */
  expires_at: DateTime,
  report: FillReport,
  artifact: Artifact,
});
export type VaultDocument = z.infer<typeof VaultDocument>;

export const FillDocumentResponse = z.object({ ok: z.literal(true), document: VaultDocument });
export type FillDocumentResponse = z.infer<typeof FillDocumentResponse>;

export const ListVaultDocumentsResponse = z.object({
  ok: z.literal(true),
  count: z.number().int().min(0),
  documents: z.array(VaultDocument),
});
export type ListVaultDocumentsResponse = z.infer<typeof ListVaultDocumentsResponse>;
