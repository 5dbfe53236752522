import type { JobHandler } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { settleRun } from '../domain/settle';

export interface SettleJobDeps {
  prisma: PrismaClient;
  logger: Logger;
  /** Clock of the written ledger line; default: now. */
  now?: () => Date;
}

/**
 * Consumer of `jobs.wallet.settle` (orchestrator → wallet once a paid run is final). Idempotent:
 * a redelivered job finds the line already written and answers `applied: false`. A database
 * failure throws, and BullMQ retries per the catalog (10 attempts with backoff).
 */
export function settleJobHandler(deps: SettleJobDeps): JobHandler<PlatformCatalog['jobs']['wallet.settle']> {
  const now = deps.now ?? (() => new Date());
  return async (payload) => {
    const result = await settleRun(
      deps.prisma,
      {
        runId: payload.run_id,
        clientId: payload.client_id,
        outcome: payload.outcome,
        reason: payload.reason,
      },
      { now: now() },
    );
    deps.logger.info(
      {
        run_id: payload.run_id,
        client_id: payload.client_id,
        outcome: payload.outcome,
        applied: result.applied,
      },
      result.applied ? 'run settled' : 'settle: nothing to apply',
    );
    return result;
  };
}
