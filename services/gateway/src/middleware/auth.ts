import type { Scope } from '@svc/contracts';
import {
  ForbiddenError,
  ServiceUnavailableError,
  storeUnavailableError,
  UnauthorizedError,
} from '@svc/errors';
import type { AuthContext, GatewayHandler } from '../locals';

/** What the gateway needs from @svc/auth's ApiKeyStore (injected, so tests can build the app). */
export interface KeyVerifier {
  /** The identity behind a presented key, or null for a malformed, unknown or revoked key. */
  verify(presented: string): Promise<AuthContext | null>;
}

const REALM = 'capability-service';
export const MISSING_KEY_MESSAGE = 'missing API key: send Authorization: Bearer <API_KEY>';
// RFC 6750 §2.1: b64token syntax; anything else after "Bearer " cannot be one of our keys.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The 403 message of a valid key without the scope(s) an endpoint (or MCP tool) requires. */
export function insufficientScopeMessage(missing: readonly string[]): string {
  const plural = missing.length === 1 ? '' : 's';
  return `insufficient scope: this endpoint requires scope${plural} ${missing.join(', ')}`;
}

/** RFC 6750 §3 challenge: realm always; error (and scope) when a credential was presented. */
function challenge(
  realm: string,
  error?: 'invalid_token' | 'insufficient_scope',
  scope?: readonly string[],
): string {
  const parts = [`realm="${realm}"`];
  if (error !== undefined) parts.push(`error="${error}"`);
  if (scope !== undefined && scope.length > 0) parts.push(`scope="${scope.join(' ')}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * Per-route authentication (spec §5): `requireAuth()` for any valid key, `requireAuth('billing:read')`
 * for a scope. On success the caller's identity is on `res.locals.auth`.
 * - no Authorization header → 401 "missing API key" (challenge without error, RFC 6750 §3.1);
 * - not a Bearer token, or a key that does not verify (malformed, unknown, revoked) → 401
 *   error="invalid_token" with one message for all, so the answer does not tell which keys exist;
 * - a valid key without the scope → 403 error="insufficient_scope" naming the missing scope(s).
 * `realm` names the protected space in the challenge (the MCP endpoint uses its own, decisions M2).
 */
export function createRequireAuth(verifier: KeyVerifier, realm: string = REALM) {
  return function requireAuth(...required: Scope[]): GatewayHandler {
    return async (req, res, next) => {
      const header = req.headers.authorization;
      if (header === undefined || header.trim() === '') {
        res.setHeader('WWW-Authenticate', challenge(realm));
        throw new UnauthorizedError(MISSING_KEY_MESSAGE);
      }
      const token = BEARER.exec(header)?.[1];
      if (token === undefined) {
        res.setHeader('WWW-Authenticate', challenge(realm, 'invalid_token'));
        throw new UnauthorizedError('malformed Authorization header: send Authorization: Bearer <API_KEY>');
      }
      let identity: AuthContext | null;
      try {
        identity = await verifier.verify(token);
      } catch (err) {
        // The key store (PostgreSQL) is down: not the caller's fault, and not a reason to say the key
        // is bad. 503 naming the store when the error says which; any other failure is 503 too.
        const unavailable = storeUnavailableError(err, 'gateway');
        res.locals.log?.[unavailable ? 'warn' : 'error']({ err }, 'API key verification failed');
        throw unavailable ?? new ServiceUnavailableError('authentication is temporarily unavailable');
      }
      if (identity === null) {
        res.setHeader('WWW-Authenticate', challenge(realm, 'invalid_token'));
        throw new UnauthorizedError('invalid API key: unknown, revoked or malformed');
      }
      const missing = required.filter((scope) => !identity.scopes.includes(scope));
      if (missing.length > 0) {
        res.setHeader('WWW-Authenticate', challenge(realm, 'insufficient_scope', missing));
        throw new ForbiddenError(insufficientScopeMessage(missing));
      }
      res.locals.auth = identity;
      next();
    };
  };
}
