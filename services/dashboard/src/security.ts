import type { Request } from 'express';

/**
 * The dashboard's browser-facing defences (issue 18): the Content-Security-Policy, the session and
 * flash cookies, the CSRF synchronizer token and the Origin check.
 */

/** The 403 page of a POST whose token or Origin is wrong (the brief's wording). */
export const CSRF_REFUSAL = 'The form expired or came from another site. Reload the page and try again.';

/** No inline script or style anywhere: one script and one stylesheet, both from /dashboard/assets. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "connect-src 'self'",
].join('; ');

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Plain http to a loopback host (the development stack): the only case where the cookies go without
 * `Secure` and the `__Host-` prefix, which a browser refuses to store over http.
 */
export function isLoopbackHttp(req: Request): boolean {
  return req.protocol === 'http' && LOOPBACK_HOSTS.has(req.hostname);
}

export interface CookieNames {
  readonly session: string;
  readonly flash: string;
}

export function cookieNames(req: Request): CookieNames {
  return isLoopbackHttp(req)
    ? { session: 'svc_dashboard', flash: 'svc_dashboard_flash' }
    : { session: '__Host-svc_dashboard', flash: '__Host-svc_dashboard_flash' };
}

/** The attributes both cookies share; `maxAgeMs` unset: a browser-session cookie. */
export function cookieOptions(req: Request, maxAgeMs?: number) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: !isLoopbackHttp(req),
    path: '/',
    ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }),
  };
}

/** The CSRF token of a session and its constant-time check: @svc/auth's (csrf.ts), the one derivation. */
export { csrfTokenFor, csrfTokenMatches } from '@svc/auth';

/**
 * The token a POST presents: the `X-CSRF-Token` header when sent (then it alone counts), else the
 * parsed body's `_csrf`. A body nobody parsed (JSON, text, an undeclared multipart) presents none.
 */
export function presentedCsrfToken(req: Request): unknown {
  const header = req.get('x-csrf-token');
  if (header !== undefined) return header;
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null ? Reflect.get(body, '_csrf') : undefined;
}

/**
 * An `Origin` header, when the browser sends one, must be this request's own origin (or
 * PUBLIC_BASE_URL's, behind a proxy that rewrites the host). Absent: the token check alone decides.
 */
export function originAllowed(req: Request, publicBaseUrl: string | undefined): boolean {
  const origin = req.get('origin');
  if (origin === undefined) return true;
  const own = `${req.protocol}://${req.get('host') ?? ''}`;
  if (origin === own) return true;
  return (
    publicBaseUrl !== undefined && URL.canParse(publicBaseUrl) && new URL(publicBaseUrl).origin === origin
  );
}

/**
 * A `next` target after sign-in: only a dashboard path of this site (never `//evil.example` or a
 * full URL), else the overview.
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string') return '/dashboard';
  if (!/^\/dashboard(?:[/?#]|$)/.test(next) || next.includes('\\') || next.length > 2000) return '/dashboard';
  return next;
}
