import { z } from 'zod';

/**
 * The rate-limit budgets (issue 13): each operation spends from one of them, per API key, or per
 * source address when the call carries no valid key. Defaults, headers and the 429 answer are the
 * gateway's (services/gateway/src/rate-limit/); which operation spends from which is declared here,
 * next to the operations, so the OpenAPI document and the gateway cannot disagree.
 * - `reads`: every GET of a resource or listing, and the MCP read tools;
 * - `quotes`: creating a quote;
 * - `runs`: starting and cancelling runs;
 * - `transfers`: moving files: creating an upload session, the PUT of its bytes, artifact downloads.
 */
export const RATE_LIMIT_BUDGETS = ['reads', 'quotes', 'runs', 'transfers'] as const;
export type RateLimitBudget = (typeof RATE_LIMIT_BUDGETS)[number];

/**
 * How an operation is limited: a budget (one point per request), `exempt` (liveness, readiness and
 * the OpenAPI document: probes must never be throttled), or `per-tool-call` (POST /mcp: each
 * JSON-RPC message spends from the budget of its tool's REST twin, so a batch of 100 `tools/call`
 * costs 100 points, not one).
 */
export type RateLimitClass = RateLimitBudget | 'exempt' | 'per-tool-call';

export function isRateLimitBudget(value: string): value is RateLimitBudget {
  return RATE_LIMIT_BUDGETS.some((budget) => budget === value);
}

/** What an operation declares; GET defaults to `reads`, every other method must say. */
export function rateLimitClassOf(op: {
  method: string;
  path: string;
  rateLimit?: RateLimitClass | undefined;
}): RateLimitClass {
  if (op.rateLimit !== undefined) return op.rateLimit;
  if (op.method === 'get') return 'reads';
  throw new Error(`${op.method.toUpperCase()} ${op.path} declares no rate-limit budget`);
}

/** The headers of every limited answer (draft-ietf-httpapi-ratelimit-headers, structured fields). */
export const RateLimitHeaders = z.object({
  'RateLimit-Policy': z
    .string()
    .describe(
      'The budget this request spent from, as a quota policy: `"<budget>";q=<requests>;w=<seconds>` ' +
        '(e.g. `"reads";q=200;w=2`). MCP answers list every budget the message spent from.',
    ),
  RateLimit: z
    .string()
    .describe(
      'What is left of that budget: `"<budget>";r=<remaining requests>;t=<seconds until the window resets>`.',
    ),
});

/** The headers of a 429: the two above and when to retry. */
export const TooManyRequestsHeaders = RateLimitHeaders.extend({
  'Retry-After': z.string().describe('Seconds until the budget has room again (the same moment as `t`).'),
});
