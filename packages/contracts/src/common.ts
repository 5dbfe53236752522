import { z } from 'zod';

/**
 * Machine-readable version label of the whole interface (spec intro, §9: paths carry no version
 * segment; the label travels in the OpenAPI document's `info.version`).
 */
export const API_VERSION = '2026-08-restoration-local';

/** Spec §2.6 / §7.1: every error body. No additional properties. */
export const ErrorResponse = z
  .object({
    ok: z.literal(false),
    error: z.string(),
  })
  .strict()
  .describe('Error body of every non-2xx answer (spec §7.1).');
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** RFC 9562 UUID (run_id, quote_id, client_id). */
export const Uuid = z.uuid();
export type Uuid = z.infer<typeof Uuid>;

/**
 * RFC 1123 host name shape: dot-separated labels of 1–63 letters, digits or hyphens, no label
 * starting or ending with a hyphen, 253 characters at most, no trailing dot. Shape only: whether a
 * name is a registrable domain (spec §2.6 apex rule) needs the public-suffix list: see Apex (apex.ts).
 */
const HOSTNAME_PATTERN =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
export const Hostname = z.stringFormat('hostname', HOSTNAME_PATTERN, { error: 'must be a hostname' });
export type Hostname = z.infer<typeof Hostname>;

/** ISO 8601 / RFC 3339 date-time; an explicit offset is accepted besides `Z`. */
export const DateTime = z.iso.datetime({ offset: true });

/**
 * Capability slug (spec §2.1: the address of a capability, a path parameter): lowercase letters,
 * digits and inner hyphens, 1–64 characters. Categories and tags use the same shape.
 */
export const Slug = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/,
    'must be lowercase letters, digits and inner hyphens (1-64)',
  );
export type Slug = z.infer<typeof Slug>;

/** Spec §2.6 CrtRunRequest.client_type and §8: 2–24 characters of `[A-Za-z0-9_-]`. */
export const ClientType = z
  .string()
  .min(2)
  .max(24)
  .regex(/^[A-Za-z0-9_-]+$/);
export type ClientType = z.infer<typeof ClientType>;

/** Spec §4 rule 2 and §8: the `Idempotency-Key` header, 8–190 characters of `[A-Za-z0-9._:-]`. */
export const IdempotencyKey = z
  .string()
  .min(8)
  .max(190)
  .regex(/^[A-Za-z0-9._:-]+$/);
export type IdempotencyKey = z.infer<typeof IdempotencyKey>;

/** Spec §5.3: the nine scopes an API key can carry. */
export const SCOPES = [
  'capabilities:read',
  'capabilities:quote',
  'capabilities:run',
  'uploads:write',
  'artifacts:read',
  'billing:read',
  'vault:read',
  'vault:write',
  'vault:fill',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/**
 * Money on the wire: a non-negative decimal string in USD with at most 6 decimals (micro-USD, the
 * unit of every money column), e.g. "0", "0.004", "12.50". Strings, not numbers, so amounts stay
 * exact through JSON. At most 12 integer digits: 10^12 USD in micros still fits a signed 64-bit
 * column (9.2 * 10^18).
 */
export const USD_AMOUNT_PATTERN = /^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,6})?$/;
export const UsdAmount = z
  .string()
  .regex(USD_AMOUNT_PATTERN, 'must be a non-negative USD decimal string with at most 6 decimals');
export type UsdAmount = z.infer<typeof UsdAmount>;

/** SHA-256 of bytes or of a canonical document, lowercase hex. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lowercase hex');

/** One lowercase token of a MIME type (`application`, `vnd.ms-excel`): RFC 6838 characters. */
export const MIME_TOKEN = '[a-z0-9][a-z0-9!#$&^_.+-]*';
