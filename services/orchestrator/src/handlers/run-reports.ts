import type { ServiceHandlers } from '@svc/bus';
import type { MessageCatalog } from '@svc/capabilities';
import { isTerminalRunState } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { crashPoint } from '@svc/service-kit';
import { claimAttempt } from '../domain/claim-attempt';
import { applyReport, type RegisterArtifacts } from '../domain/reports';
import { announceFinalRun, type RunFinishedEvent } from '../domain/run-finished';
import type { SettleRun } from '../domain/settlement';

export interface RunReportDeps {
  prisma: PrismaClient;
  /** `uploads.registerArtifacts`: a completed run's artifacts are registered before it shows completed. */
  registerArtifacts: RegisterArtifacts;
  /** `wallet.settle`: a paid final run is settled after the answer to the worker, not before. */
  settle: SettleRun;
  publishFinished(event: RunFinishedEvent): Promise<void>;
  logger: Logger;
}

type WorkerMethods = Pick<ServiceHandlers<MessageCatalog, 'orchestrator'>, 'claimAttempt' | 'reportRun'>;

/**
 * The worker's two methods on `rpc.orchestrator` (issue 15). Each answers once its row change is
 * committed, so a worker with an answer knows PostgreSQL has it and a worker without one asks again.
 *
 * - `claimAttempt`: claim-attempt.ts. A claim that cancels a run (cancel requested, no worker
 *   left on it) announces and releases it like any final run.
 * - `reportRun`: applyReport; then, for a final run, `run.finished` and the settlement, which
 *   starts in the background (the worker is not kept waiting for the wallet; redriveSettlements
 *   finishes what fails). A report that moved nothing but finds the run final (the worker asks
 *   again because the first answer was lost, perhaps with the process that applied it) announces
 *   and settles it again: both are idempotent, and the first attempt may never have happened.
 */
export function runReportHandlers(deps: RunReportDeps): WorkerMethods {
  return {
    claimAttempt: async ({ run_id, job_id }) => {
      const outcome = await claimAttempt(deps.prisma, run_id, job_id);
      if (outcome.finished !== undefined) {
        deps.logger.info({ run_id, job_id }, 'claim: run cancelled (its cancel was requested)');
        await announceFinalRun(deps, outcome.finished);
      }
      return outcome.answer;
    },
    reportRun: async (report) => {
      const outcome = await applyReport(deps, report);
      const run = outcome.run;
      if (run !== undefined && isTerminalRunState(run.status)) {
        if (outcome.applied) crashPoint('orchestrator.report-applied');
        await announceFinalRun(deps, run);
      }
      return { applied: outcome.applied };
    },
  };
}
