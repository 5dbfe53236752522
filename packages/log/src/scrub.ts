/** What replaces a secret in log output. */
export const REDACTED = '[redacted]';

/**
 * Secret shapes found inside any text. They match only characters that JSON never escapes, so
 * they can run over a serialized log line without breaking it.
 * - API keys `svc_live_…` / `svc_test_…` (spec §5.2: never in logs). No word boundary on purpose: a
 *   key glued to other text (`key=svc_live_…`, `abc_svc_live_…`) must still go.
 * - Upload tokens `upl_…` (spec §2.4 / §5.4: never logged). Consequence: nothing that is not a
 *   secret should be given an `upl_` prefix, or it is redacted too.
 * - `Bearer <token>` in any letter case, whatever the token looks like.
 */
const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/svc_(?:live|test)_[A-Za-z0-9_]+/g, REDACTED],
  [/upl_[A-Za-z0-9_]+/g, REDACTED],
  [/\b(bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
];

/** Replaces every secret-shaped substring of `text` with `[redacted]`. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
