import { RATE_LIMIT_BUDGETS, type RateLimitBudget } from '@svc/contracts';
import type { Prisma, PrismaClient } from '@svc/db';
import type { SetRateLimitArgs } from '../args';
import { clientIdByName } from './client-by-name';

/** One stored override, as the gateway reads it (rate-limit/budgets.ts BudgetOverride). */
interface StoredOverride {
  quota: number;
  window_seconds: number;
}

export interface SetRateLimitOutput {
  client_id: string;
  /** Every override of the client now, by budget; budgets not named keep the gateway's defaults. */
  rate_limits: Partial<Record<RateLimitBudget, StoredOverride>>;
}

/**
 * Sets or removes one budget override of a client (auth.clients.rate_limits). One UPDATE with
 * jsonb `||` (set) or `-` (remove), so two operators changing different budgets at once both land.
 * The gateway reads the column with the API key it verifies, and keeps a verified key for up to
 * API_KEY_CACHE_TTL_MS (1 s): in force within that on every gateway.
 */
export async function setRateLimit(
  prisma: PrismaClient,
  args: SetRateLimitArgs,
): Promise<SetRateLimitOutput> {
  const clientId = await clientIdByName(prisma, args.clientName);
  const rows =
    args.limit === null
      ? await prisma.$queryRaw<Array<{ rate_limits: Prisma.JsonValue }>>`
          UPDATE auth.clients SET rate_limits = rate_limits - ${args.budget}::text
          WHERE id = ${clientId}::uuid RETURNING rate_limits`
      : await prisma.$queryRaw<Array<{ rate_limits: Prisma.JsonValue }>>`
          UPDATE auth.clients
          SET rate_limits = rate_limits || jsonb_build_object(${args.budget}::text,
            jsonb_build_object('quota', ${args.limit.quota}::int, 'window_seconds', ${args.limit.windowSeconds}::int))
          WHERE id = ${clientId}::uuid RETURNING rate_limits`;
  return { client_id: clientId, rate_limits: overridesOf(rows[0]?.rate_limits ?? {}) };
}

function overridesOf(value: Prisma.JsonValue): SetRateLimitOutput['rate_limits'] {
  const out: SetRateLimitOutput['rate_limits'] = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const budget of RATE_LIMIT_BUDGETS) {
    const entry = value[budget];
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    const { quota, window_seconds: windowSeconds } = entry;
    if (typeof quota === 'number' && typeof windowSeconds === 'number') {
      out[budget] = { quota, window_seconds: windowSeconds };
    }
  }
  return out;
}
