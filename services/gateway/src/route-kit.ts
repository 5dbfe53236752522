import { VAULT_DOCUMENT_TEXT_MAX_CHARACTERS, VAULT_TEMPLATE_TEXT_MAX_CHARACTERS } from '@svc/contracts';
import { PayloadTooLargeError } from '@svc/errors';
import type { Request } from 'express';
import { parseSize } from './env';
import type { GatewayHandler } from './locals';
import { createRequireAuth, type KeyVerifier } from './middleware/auth';
import { createJsonBody } from './middleware/validate';
import type { GatewayRateLimiter, RequireAuth } from './rate-limit/rate-limiter';
import { createPublicBaseUrl } from './routes/public-base-url';

/**
 * The middleware a route's operation calls for (routing/serve-routes.ts derives each route's chain
 * from it), in a module of its own so the routing imports neither the app nor the routes.
 */

/** The shared auth and JSON-body middleware, and link building. */
export interface RouteKit {
  /**
   * The key check of a realm (default the API's; `mcp` for /mcp, decisions M2): `requireAuth()()`
   * for any valid key, `requireAuth()('billing:read')` for a scope (middleware/auth.ts). It spends
   * the per-key rate-limit budget once the key is verified.
   */
  readonly requireAuth: (realm?: string) => RequireAuth;
  /** Put at the head of a route that takes a JSON body (415/413/400 handling, JSON_BODY_LIMIT). */
  readonly jsonBody: readonly GatewayHandler[];
  /**
   * The same for a route whose body may carry a whole document (vault extractions and fills): the
   * larger of JSON_BODY_LIMIT and DOCUMENT_JSON_BODY_LIMIT_BYTES, its 413 naming that limit.
   */
  readonly documentJsonBody: readonly GatewayHandler[];
  /** The base (origin and optional prefix, no trailing slash) of every link a route hands out. */
  readonly publicBaseUrl: (req: Request) => string;
}

export interface RouteKitOptions {
  /** Verifies API keys (@svc/auth ApiKeyStore). */
  readonly keys: KeyVerifier;
  /** JSON_BODY_LIMIT, bytes or a size such as "1mb". */
  readonly jsonBodyLimit: string;
  /** PUBLIC_BASE_URL; unset: links are built from each request's own origin (public-base-url.ts). */
  readonly publicBaseUrl?: string | undefined;
  /** Rate limits; omitted: none (tests). */
  readonly rateLimiter?: GatewayRateLimiter | undefined;
}

/**
 * bytes: the body of `POST /api/vault/extractions` or `/fill-document` at its largest: the longest
 * document or template text (contracts, in UTF-16 code units) at 6 bytes each, as a JSON encoder
 * that escapes every non-ASCII character writes it (`\u6771`: Python's json.dumps by default), plus
 * 64 KiB for the rest of the body (up to 200 field names, a filename). 1,265,536 today: a
 * 200,000-character document always fits, whatever the client's encoder does.
 */
export const DOCUMENT_JSON_BODY_LIMIT_BYTES =
  6 * Math.max(VAULT_DOCUMENT_TEXT_MAX_CHARACTERS, VAULT_TEMPLATE_TEXT_MAX_CHARACTERS) + 64 * 1024;

/** body-parser's "too large" failure (http-errors, `type: 'entity.too.large'`). */
function isTooLarge(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'type' in err && err.type === 'entity.too.large';
}

/**
 * The JSON body chain with a limit of its own. body-parser's 413 is rewritten here: the app's error
 * handler would name JSON_BODY_LIMIT, which is not this route's limit.
 */
function createDocumentJsonBody(appLimit: string): GatewayHandler[] {
  const appBytes = parseSize(appLimit.trim().toLowerCase());
  const bytes = Number.isFinite(appBytes)
    ? Math.max(appBytes, DOCUMENT_JSON_BODY_LIMIT_BYTES)
    : DOCUMENT_JSON_BODY_LIMIT_BYTES;
  const tooLarge = () => new PayloadTooLargeError(`request body too large (limit ${bytes} bytes)`);
  return createJsonBody(String(bytes)).map(
    (handler): GatewayHandler =>
      (req, res, next) =>
        handler(req, res, (err?: unknown) => (isTooLarge(err) ? next(tooLarge()) : next(err))),
  );
}

export function createRouteKit(options: RouteKitOptions): RouteKit {
  const byRealm = new Map<string | undefined, RequireAuth>();
  const requireAuth = (realm?: string): RequireAuth => {
    const known = byRealm.get(realm);
    if (known !== undefined) return known;
    const check = createRequireAuth(options.keys, realm);
    // Spends the per-key rate-limit budget once the key is verified (rate-limit/rate-limiter.ts).
    const guarded = options.rateLimiter ? options.rateLimiter.guardAuth(check) : check;
    byRealm.set(realm, guarded);
    return guarded;
  };
  return {
    requireAuth,
    jsonBody: createJsonBody(options.jsonBodyLimit),
    documentJsonBody: createDocumentJsonBody(options.jsonBodyLimit),
    publicBaseUrl: createPublicBaseUrl(options.publicBaseUrl),
  };
}
