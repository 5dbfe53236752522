import { z } from 'zod';
import { ClientType, DateTime, MIME_TOKEN, Sha256Hex, Slug, Uuid } from './common';

/**
 * Upload sessions and uploads (spec §1.4, §2.4, §4.6, §4.7, rule 4; docs/decisions.md U1–U8). A
 * session is created for one capability and one file; its token authorizes one PUT of exactly the
 * declared bytes; the upload it makes is passed as `upload_id` / `upload_ids` in quote and run input.
 */

/** Platform-wide ceiling of one upload (256 MiB): no capability may accept more (decisions U2). */
export const UPLOAD_MAX_BYTES = 256 * 1024 * 1024;

/** `upload_id`: the session's id, later the upload's (spec §2.4). */
export const UploadId = Uuid;

/** Not a path separator nor a control character (C0 or DEL). */
function isNameCharacter(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return code >= 0x20 && code !== 0x7f && character !== '/' && character !== '\\';
}

/**
 * A file name as the client knows it: 1–255 characters, no path separators, no control characters,
 * not `.` or `..`. Only used for display, the extension check and artifact names; never as a path.
 */
export const Filename = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => [...name].every(isNameCharacter), {
    message: 'must not contain path separators or control characters',
  })
  .refine((name) => name !== '.' && name !== '..' && name.trim() === name && name.length > 0, {
    message: 'must be a file name without leading or trailing spaces',
  });

/** A concrete MIME type `type/subtype` without parameters, lowercased by the client. */
export const ContentType = z
  .string()
  .max(127)
  .regex(
    new RegExp(`^${MIME_TOKEN}/${MIME_TOKEN}$`),
    'must be a lowercase MIME type such as application/pdf',
  );

/** Spec §2.4 / §4.6 request input: the file the client is about to upload. */
export const UploadSessionInput = z
  .object({
    filename: Filename,
    content_type: ContentType,
    size_bytes: z.number().int().min(1).max(UPLOAD_MAX_BYTES),
  })
  .strict();
export type UploadSessionInput = z.infer<typeof UploadSessionInput>;

/** Body of `POST /api/capabilities/{slug}/upload-session` (spec §4.6). */
export const UploadSessionRequest = z
  .object({
    input: UploadSessionInput,
    client_type: ClientType.default('api'),
  })
  .strict();
export type UploadSessionRequest = z.infer<typeof UploadSessionRequest>;

/** Upload states: `pending` (session open, no bytes yet), `uploading` (a PUT is streaming), `complete`, `expired`. */
export const UploadStatus = z.enum(['pending', 'uploading', 'complete', 'expired']);
export type UploadStatus = z.infer<typeof UploadStatus>;

/**
 * What one read of a CSV with one delimiter found (a probe of a table-reading capability; issue 13:
 * its limits are checked at quote time). A count stops one past the capability's limit (its
 * `max_columns`, `max_record_characters`), and so does the read: a figure over the limit means "more
 * than the limit", not the exact width or length.
 */
export const CsvFacts = z
  .object({
    /** Most fields in one record, the header included. */
    columns: z.number().int().min(0),
    /** characters of the longest record (its fields' characters, as csv-parse counts them). */
    max_record_characters: z.number().int().min(0),
    /**
     * false: the read stopped early, at a record over a limit or where the CSV is malformed with
     * this delimiter (the run says where); the figures are those of the records before.
     */
    complete: z.boolean(),
  })
  .strict();
export type CsvFacts = z.infer<typeof CsvFacts>;

/**
 * What the upload service learned from the bytes, used for pricing and checks at quote time
 * (decisions U6, K17). Which facts a file gets is up to the probe its capability declares
 * (packages/capabilities: `files.probe`), so the set is open: a new capability's probe records its
 * own facts without a change here. The fields below are the ones published so far, kept with their
 * shapes for the clients that read them: `pages` of a PDF, `width`/`height`/`format` of an image,
 * and for a CSV its facts per delimiter (`csv[","]`, …). A file whose capability declares no probe
 * (or of a type its probe does not read, or uploaded before its probe existed) has none.
 */
export const FileFacts = z
  .object({
    pages: z.number().int().min(0).optional(),
    width: z.number().int().min(1).optional(),
    height: z.number().int().min(1).optional(),
    format: z.string().max(32).optional(),
    csv: z
      .object({
        ',': CsvFacts.optional(),
        ';': CsvFacts.optional(),
        '\t': CsvFacts.optional(),
        '|': CsvFacts.optional(),
      })
      .strict()
      .optional(),
  })
  .catchall(
    z.unknown().describe("A fact the probe of the upload's capability records besides the ones named here."),
  );
export type FileFacts = z.infer<typeof FileFacts>;

/** An upload as its owner sees it (the token is never part of it). */
export const UploadRecord = z.object({
  upload_id: UploadId,
  slug: Slug,
  filename: Filename,
  content_type: ContentType,
  size_bytes: z.number().int().min(1),
  status: UploadStatus,
  /** Set once complete. */
  sha256: Sha256Hex.nullable(),
  facts: FileFacts.nullable(),
  created_at: DateTime,
  /** When the session (and its token) stops accepting the PUT. */
  expires_at: DateTime,
  completed_at: DateTime.nullable(),
  /** When a complete upload no run used is deleted (null: kept while a run uses it). */
  delete_after: DateTime.nullable(),
});
export type UploadRecord = z.infer<typeof UploadRecord>;

/**
 * Response of §4.6: the session. `upload_token` is shown here once, authorizes exactly one PUT to
 * `upload_url` (spec §5.4) and is never stored in clear nor logged.
 */
export const UploadSessionResponse = z.object({
  ok: z.literal(true),
  upload_id: UploadId,
  upload_url: z.url(),
  upload_token: z.string().regex(/^upl_[A-Za-z0-9]{43}$/),
  /** The HTTP method and headers the PUT must carry. */
  method: z.literal('PUT'),
  headers: z.object({ 'Content-Type': ContentType, 'Content-Length': z.string() }),
  expires_at: DateTime,
  upload: UploadRecord,
});
export type UploadSessionResponse = z.infer<typeof UploadSessionResponse>;

/** Response of §4.7 (the stored upload) and of `GET /api/capability-uploads/{upload_id}`. */
export const UploadResponse = z.object({ ok: z.literal(true), upload: UploadRecord });
export type UploadResponse = z.infer<typeof UploadResponse>;

/** Path parameters of the upload routes. */
export const UploadIdParams = z.object({ upload_id: UploadId }).strict();

/**
 * An upload resolved for a quote or a run (internal: orchestrator, job payloads). `storage_key` is
 * where the bytes are in object storage; workers read them from there.
 */
export const ResolvedFile = z.object({
  upload_id: UploadId,
  filename: Filename,
  content_type: ContentType,
  size_bytes: z.number().int().min(1),
  sha256: Sha256Hex,
  facts: FileFacts,
  storage_key: z.string().min(1).max(512),
});
export type ResolvedFile = z.infer<typeof ResolvedFile>;
