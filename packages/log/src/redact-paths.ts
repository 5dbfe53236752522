/**
 * Keys whose VALUE is secret whatever it looks like (passwords have no recognisable shape). pino's
 * redaction matches exact paths and `*` matches exactly one level, so each key is listed at the
 * top level and one and two levels down (`password`, `body.password`, `req.body.password`).
 * Deeper secrets of a known shape (API keys, upload tokens, bearer tokens) are still caught by
 * the line scrubber.
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'api_key',
  'apiKey',
  'upload_token',
  'uploadToken',
  // A presigned upload URL grants write access until it expires.
  'upload_url',
  'uploadUrl',
  'token',
  'secret',
  'password',
  'secret_hash',
  'secretHash',
  // Vault (spec §4.15-4.20): private field values, under whichever name the vault code uses.
  'vault_value',
  'vaultValue',
] as const;

/** Header names that are secret; logged header objects sit at `headers` or `<x>.headers`. */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key', 'proxy-authorization'] as const;

/**
 * Vault field objects: `{ field: { name, value } }` or `{ fields: [{ name, value }] }`, at the top
 * level or one level down. `value` alone is too common a key to redact everywhere (metrics,
 * config echoes), so only these vault-shaped places are covered.
 */
const VAULT_VALUE_PATHS = [
  'field.value',
  'fields[*].value',
  'vault.value',
  'vault.fields[*].value',
  '*.field.value',
  '*.fields[*].value',
  '*.vault.value',
] as const;

export const REDACT_PATHS: readonly string[] = [
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  ...SECRET_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
  ...VAULT_VALUE_PATHS,
];
