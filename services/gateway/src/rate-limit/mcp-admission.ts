import type { RateLimitBudget } from '@svc/contracts';
import type { AuthContext, GatewayResponse } from '../locals';
import { mcpMessageBudget } from './classify';
import type { BudgetState } from './headers';
import { rateLimitedMessage } from './headers';
import { type GatewayRateLimiter, refuse, setRateLimitHeaders } from './rate-limiter';

/** Which of a request's tool calls may run: asked once per `tools/call`, in the order they arrive. */
export interface McpAdmission {
  /** undefined: go ahead; else the 429 message for the tool's `isError` result. */
  take(budget: RateLimitBudget): string | undefined;
}

/** No limiter configured (apps built in tests without Redis): every call goes ahead. */
export const ADMIT_ALL: McpAdmission = { take: () => undefined };

function isToolCall(message: unknown): boolean {
  return (
    typeof message === 'object' && message !== null && 'method' in message && message.method === 'tools/call'
  );
}

/**
 * Spends the budgets of one POST /mcp, per JSON-RPC message (decisions, rate limits): each
 * `tools/call` one point of its tool's REST twin's budget, any other message one `reads` point. All
 * budgets of a batch are spent at once (one consume per budget, sent together: one round trip), with
 * the points of each budget in one INCRBY. Then:
 * - tool calls beyond their budget get the REST 429 message as an `isError` result (decisions M4:
 *   a tool fails the way its REST twin does), the others run; the HTTP answer is the JSON-RPC one;
 * - a request without any tool call whose `reads` are spent is refused at HTTP level, 429 with
 *   Retry-After like REST (there is no tool result to carry the refusal);
 * - the answer carries RateLimit-Policy and RateLimit for every budget spent from.
 */
export async function admitMcpMessages(
  limiter: GatewayRateLimiter,
  res: GatewayResponse,
  auth: AuthContext,
  message: unknown,
): Promise<McpAdmission> {
  const messages: readonly unknown[] = Array.isArray(message) ? message : [message];
  const points = new Map<RateLimitBudget, number>();
  for (const each of messages) {
    const budget = mcpMessageBudget(each);
    points.set(budget, (points.get(budget) ?? 0) + 1);
  }
  const subject = { kind: 'key', keyId: auth.keyId } as const;
  const spent = await Promise.all(
    [...points].map(async ([budget, count]) => {
      const policy = limiter.policies.policy(budget, subject, auth.rateLimits);
      return { budget, ...(await limiter.ledger.consume(policy, subject, count)) };
    }),
  );
  setRateLimitHeaders(
    res,
    spent.map(({ state }) => state),
  );
  const reads = spent.find((each) => each.budget === 'reads');
  if (!messages.some(isToolCall) && reads !== undefined && reads.granted < (points.get('reads') ?? 0)) {
    throw refuse(res, reads.state);
  }
  const left = new Map<RateLimitBudget, { granted: number; state: BudgetState }>(
    spent.map(({ budget, granted, state }) => [budget, { granted, state }]),
  );
  return {
    take(budget) {
      const entry = left.get(budget);
      if (entry === undefined) return undefined;
      if (entry.granted > 0) {
        entry.granted -= 1;
        return undefined;
      }
      return rateLimitedMessage(entry.state);
    },
  };
}
