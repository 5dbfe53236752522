import type { Request, Router } from 'express';
import type { GatewayHandler } from './locals';
import { createRequireAuth, type KeyVerifier } from './middleware/auth';
import { createJsonBody } from './middleware/validate';
import type { GatewayRateLimiter, RequireAuth } from './rate-limit/rate-limiter';
import { createPublicBaseUrl } from './routes/public-base-url';

/**
 * What the resource routers get from the app, in a module of its own: the routers import this file
 * and app.ts imports the routers, so neither imports the other (no import cycle; `pnpm lint` runs
 * madge --circular).
 */

/** A router and where it is mounted. Each resource is one mount; MCP (`/mcp`) is one too. */
export interface RouteMount {
  readonly path: string;
  readonly router: Router;
}

/** The shared auth and JSON-body middleware, and link building. */
export interface RouteKit {
  /** `requireAuth()` for any valid key, `requireAuth('billing:read')` for a scope (middleware/auth.ts). */
  readonly requireAuth: RequireAuth;
  /** Put at the head of a route that takes a JSON body (415/413/400 handling, JSON_BODY_LIMIT). */
  readonly jsonBody: readonly GatewayHandler[];
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

export function createRouteKit(options: RouteKitOptions): RouteKit {
  const requireAuth = createRequireAuth(options.keys);
  return {
    // Spends the per-key rate-limit budget once the key is verified (rate-limit/rate-limiter.ts).
    requireAuth: options.rateLimiter ? options.rateLimiter.guardAuth(requireAuth) : requireAuth,
    jsonBody: createJsonBody(options.jsonBodyLimit),
    publicBaseUrl: createPublicBaseUrl(options.publicBaseUrl),
  };
}
