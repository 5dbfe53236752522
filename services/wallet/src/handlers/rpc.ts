import type { ServiceHandlers } from '@svc/bus';
import { microsFromUsd, type PlatformCatalog, usdFromMicros } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { getBalance } from '../domain/balance';
import { dailySpend } from '../domain/daily-spend';
import { holdForRun } from '../domain/holds';
import { openHolds } from '../domain/open-holds';
import { DEFAULT_QUOTE_TTL_MS, issueQuote } from '../domain/quotes';
import { runLedger } from '../domain/run-ledger';
import { settleRun } from '../domain/settle';
import { spendDiagnostics } from '../domain/spend-diagnostics';
import { usageStatement } from '../domain/usage-statement';
import {
  toBalanceResponse,
  toDailySpendResponse,
  toQuoteResponse,
  toRunLedger,
  toSpendDiagnosticsResponse,
  toUsageStatementResponse,
} from './wire';

export interface WalletHandlerDeps {
  prisma: PrismaClient;
  /** Told of every settlement (run settled, or nothing to apply); optional. */
  logger?: Logger;
  /** Clock for the spend period, quote timestamps and ledger lines; default: now. */
  now?: () => Date;
  /** ms: lifetime of an issued quote (QUOTE_TTL_MS); default DEFAULT_QUOTE_TTL_MS (15 min). */
  quoteTtlMs?: number;
}

/** `rpc.wallet` methods (ping is answered by serveRpc itself). Transport only: logic in src/domain/. */
export function walletHandlers(deps: WalletHandlerDeps): ServiceHandlers<PlatformCatalog, 'wallet'> {
  const { prisma } = deps;
  const now = deps.now ?? (() => new Date());
  const ttlMs = deps.quoteTtlMs ?? DEFAULT_QUOTE_TTL_MS;
  return {
    balance: async ({ client_id }) => toBalanceResponse(await getBalance(prisma, client_id, { now: now() })),
    issueQuote: async (request) =>
      toQuoteResponse(
        await issueQuote(
          prisma,
          {
            quoteId: request.quote_id,
            clientId: request.client_id,
            slug: request.slug,
            priceMicros: microsFromUsd(request.price_usd),
            inputHash: request.input_hash,
            priceDetail: request.price_detail,
            forRun: request.for_run === true,
          },
          { ttlMs, now: now() },
        ),
      ),
    holdForRun: async (request, context) => {
      const hold = await holdForRun(
        prisma,
        {
          clientId: request.client_id,
          runId: request.run_id,
          quoteId: request.quote_id,
          slug: request.slug,
          inputHash: request.input_hash,
        },
        { now: now(), deadline: context.deadline },
      );
      return { quote: toQuoteResponse(hold.quote), held_usd: usdFromMicros(hold.heldMicros) };
    },
    runLedger: async ({ client_id, run_id }) => toRunLedger(await runLedger(prisma, client_id, run_id)),
    usageStatement: async (request) =>
      toUsageStatementResponse(
        await usageStatement(
          prisma,
          {
            clientId: request.client_id,
            limit: request.limit,
            from: request.from,
            to: request.to,
            slug: request.slug,
          },
          { now: now() },
        ),
      ),
    spendDiagnostics: async ({ client_id }) =>
      toSpendDiagnosticsResponse(await spendDiagnostics(prisma, client_id, { now: now() })),
    dailySpend: async ({ client_id, days }) =>
      toDailySpendResponse(await dailySpend(prisma, { clientId: client_id, days }, { now: now() })),
    // Idempotent (one ledger line per run and kind): the orchestrator calls it again until it gets
    // an answer, and its sweep re-drives runs whose answer it never recorded.
    settle: async (request) => {
      const result = await settleRun(
        prisma,
        {
          runId: request.run_id,
          clientId: request.client_id,
          outcome: request.outcome,
          reason: request.reason,
        },
        { now: now() },
      );
      deps.logger?.info(
        {
          run_id: request.run_id,
          client_id: request.client_id,
          outcome: request.outcome,
          applied: result.applied,
        },
        result.applied ? 'run settled' : 'settle: nothing to apply',
      );
      return result;
    },
    openHolds: async ({ older_than, limit, after }) => ({
      holds: (
        await openHolds(
          prisma,
          new Date(older_than),
          limit,
          after === undefined ? undefined : { createdAt: new Date(after.created_at), runId: after.run_id },
        )
      ).map((hold) => ({
        run_id: hold.runId,
        client_id: hold.clientId,
        created_at: hold.createdAt.toISOString(),
      })),
    }),
  };
}
