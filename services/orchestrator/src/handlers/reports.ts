import { type Bus, type JobProcessor, processJobs, type RpcClient } from '@svc/bus';
import type { MessageCatalog } from '@svc/capabilities';
import { isTerminalRunState, type RpcCatalog } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { applyReport } from '../domain/reports';
import { runFinishedEvent } from '../domain/run-finished';
import { queueSettlement } from '../domain/settlement';
import { artifactRegistrar, runFinishedPublisher, settleEnqueuer } from './bus-ports';

/**
 * Reports applied at once: each is one or two short statements, so the database, not this process,
 * bounds the rate. Reports of one run may run concurrently; row locks order their UPDATEs.
 */
const REPORT_CONCURRENCY = 16;

export interface ReportConsumerDeps {
  prisma: PrismaClient;
  bus: Bus<MessageCatalog>;
  /** `rpc.uploads` client: a completed run's artifacts are registered before it shows completed. */
  uploads: RpcClient<RpcCatalog['uploads']>;
  logger: Logger;
}

/**
 * Consumes `runs.report` (workers → orchestrator). After a report, a final run is announced with
 * `run.finished` (owner and stored record included, runFinishedEvent), also when it was final
 * already: a redelivered report means the first publish may not have happened (the process died
 * between the UPDATE and the publish). Then a paid final run whose settlement was never queued gets
 * it queued (`wallet.settle`: capture when completed, release otherwise), again also for a report
 * that moved nothing. A publish or enqueue failure fails the job, and BullMQ retries it (the UPDATE
 * is then a no-op). So does a failed artifact registration (upload service down), before any
 * UPDATE: the run stays running until a retry registers them (transientRetry: 5 attempts).
 */
export function consumeRunReports(deps: ReportConsumerDeps): JobProcessor {
  const publishFinished = runFinishedPublisher(deps.bus);
  const enqueueSettle = settleEnqueuer(deps.bus);
  const applyDeps = {
    prisma: deps.prisma,
    registerArtifacts: artifactRegistrar(deps.uploads),
    logger: deps.logger,
  };
  return processJobs(
    deps.bus,
    'runs.report',
    async (report) => {
      const outcome = await applyReport(applyDeps, report);
      const run = outcome.run;
      if (run !== undefined && isTerminalRunState(run.status)) {
        // With the owner and the stored record: the waiting gateway answers without a getRun.
        await publishFinished(runFinishedEvent(run));
        await queueSettlement(deps.prisma, enqueueSettle, run);
      }
      return { applied: outcome.applied };
    },
    { concurrency: REPORT_CONCURRENCY },
  );
}
