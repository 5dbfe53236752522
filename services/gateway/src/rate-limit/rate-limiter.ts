import type { RateLimitBudget, Scope } from '@svc/contracts';
import { AppError } from '@svc/errors';
import type { Request } from 'express';
import type { AuthContext, GatewayHandler, GatewayResponse } from '../locals';
import type { BudgetPolicies, Subject } from './budgets';
import { type RequestClass, requestClassOf } from './classify';
import {
  type BudgetState,
  formatPolicyHeader,
  formatRateLimitHeader,
  rateLimitedMessage,
  secondsUntil,
} from './headers';
import type { BudgetLedger } from './limiter';

/** A 429: the budget is spent for now. `Retry-After` is set on the response before it is thrown. */
export class RateLimitedError extends AppError {
  constructor(message: string) {
    super(429, message);
    this.name = 'RateLimitedError';
  }
}

/** The shape of `createRequireAuth(...)`: scopes → the auth middleware. */
export type RequireAuth = (...scopes: Scope[]) => GatewayHandler;

/** Sets both RateLimit fields for the budgets a request spent from. */
export function setRateLimitHeaders(res: GatewayResponse, states: readonly BudgetState[]): void {
  if (states.length === 0) return;
  res.setHeader('RateLimit-Policy', formatPolicyHeader(states));
  res.setHeader('RateLimit', formatRateLimitHeader(states));
}

/** Sets Retry-After and returns the 429 to throw for a spent budget. */
export function refuse(res: GatewayResponse, state: BudgetState): RateLimitedError {
  res.setHeader('Retry-After', String(Math.max(1, secondsUntil(state.resetMs))));
  return new RateLimitedError(rateLimitedMessage(state));
}

/** The source address of an unauthenticated call: express's `req.ip` (honours TRUST_PROXY). */
export function addressOf(req: Request): Subject {
  return { kind: 'address', ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}

/**
 * The gateway's rate limits (README "Rate limits"). Every request is classified by the operation it
 * matched (`res.locals.operation`, classify.ts); then exactly one place spends from its budget, so a
 * request costs at most one Redis round trip (an MCP batch spending from several budgets sends them
 * together):
 * - `exempt` (probes, /openapi.json): nothing;
 * - operations without an API key (public, the upload PUT, unknown paths): per source address, here,
 *   before the route;
 * - operations with an API key: after the key is verified, per key (`guardAuth`), with the client's
 *   operator overrides read with the key (no query of its own). A request whose key does not verify
 *   (401/403) spends from its address's budget instead, so guessing keys is bounded too;
 * - POST /mcp: per JSON-RPC message, by the MCP router (`mcp-admission.ts`).
 */
export class GatewayRateLimiter {
  // The class of each request waiting for its key check; gone once spent (never twice).
  private readonly pending = new WeakMap<Request, RequestClass>();

  constructor(
    readonly ledger: BudgetLedger,
    readonly policies: BudgetPolicies,
  ) {}

  /** Mounted before the routers, after the request is matched to its operation (app.ts). */
  readonly classify: GatewayHandler = async (req, res, next) => {
    const requestClass = requestClassOf(res.locals.operation);
    if (requestClass.rateLimit === 'exempt') return next();
    if (requestClass.auth === 'key') {
      this.pending.set(req, requestClass);
      return next();
    }
    await this.spend(res, budgetOf(requestClass), addressOf(req));
    next();
  };

  /** Wraps requireAuth so the per-key budget is spent once the key is known (see the class comment). */
  guardAuth(requireAuth: RequireAuth): RequireAuth {
    return (...scopes) => {
      const inner = requireAuth(...scopes);
      return async (req, res, next) => {
        let authenticated = false;
        try {
          await inner(req, res, () => {
            authenticated = true;
          });
        } catch (err) {
          await this.afterFailedAuth(req, res);
          throw err;
        }
        if (!authenticated) return;
        const requestClass = this.take(req);
        if (requestClass !== undefined && requestClass.rateLimit !== 'per-tool-call') {
          const auth = res.locals.auth;
          if (auth !== undefined) await this.spend(res, budgetOf(requestClass), keySubject(auth), auth);
        }
        next();
      };
    };
  }

  /**
   * Spends `points` from one budget of `subject`; sets the RateLimit headers; throws the 429 (with
   * Retry-After) when they do not fit.
   */
  async spend(
    res: GatewayResponse,
    budget: RateLimitBudget,
    subject: Subject,
    auth?: AuthContext,
  ): Promise<void> {
    const policy = this.policies.policy(budget, subject, auth?.rateLimits);
    const { state, granted } = await this.ledger.consume(policy, subject, 1);
    setRateLimitHeaders(res, [state]);
    if (granted < 1) throw refuse(res, state);
  }

  /** A key that did not verify (or lacks the scope): the request spends from its address's budget. */
  private async afterFailedAuth(req: Request, res: GatewayResponse): Promise<void> {
    const requestClass = this.take(req);
    if (requestClass === undefined) return;
    await this.spend(res, budgetOf(requestClass), addressOf(req));
  }

  private take(req: Request): RequestClass | undefined {
    const requestClass = this.pending.get(req);
    this.pending.delete(req);
    return requestClass;
  }
}

function keySubject(auth: AuthContext): Subject {
  return { kind: 'key', keyId: auth.keyId };
}

/** The budget a request spends from; an MCP request that never reached its messages: `reads`. */
function budgetOf(requestClass: RequestClass): RateLimitBudget {
  const { rateLimit } = requestClass;
  return rateLimit === 'per-tool-call' || rateLimit === 'exempt' ? 'reads' : rateLimit;
}
