/**
 * URL helpers. Connection URLs carry passwords: anything that ends up in an error message or a log
 * line goes through `redactUrl` first.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** `postgres://app:s3cret@db:5432/x` → `postgres://app:***@db:5432/x`. Unparseable input → a placeholder. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '<unparseable URL>';
  }
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** Removes a secret from free text (driver error messages can echo parts of the URL). */
export function scrubSecret(text: string, secret: string): string {
  return secret.length >= 3 ? text.split(secret).join('***') : text;
}

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || hostname.startsWith('127.');
}

/** The same server and credentials, another database: `withDatabase('postgres://u@h/a', 'b')` → `…/b`. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** Password of a URL, percent-decoded ('' when none): used only to scrub it from error text. */
export function urlPassword(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}
