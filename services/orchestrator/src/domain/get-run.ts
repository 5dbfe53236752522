import type { RunRecord } from '@svc/contracts';
import type { PrismaClient, Run } from '@svc/db';
import { NotFoundError } from '@svc/errors';
import { type RunRecordRow, toRunRecord } from './run-record';
import { needsWorkerCheck } from './status-message';

/**
 * Whether at least one worker that serves the capability is up (its heartbeat in the capability's
 * sorted set has not lapsed: a worker of its runtime that serves it, all of them or its pool's list).
 * Never throws: an unanswerable Redis counts as "none up".
 */
export type WorkerAvailability = (capability: { slug: string; runtime: string }) => Promise<boolean>;

/**
 * The RunRecord of a stored run; Redis is asked whether a worker of its runtime is up only where the
 * answer shows (a queued or retrying `requires_worker` run: waiting_for_runtime, status_message).
 */
export async function runRecordOf(row: RunRecordRow, workerUp: WorkerAvailability): Promise<RunRecord> {
  const up = needsWorkerCheck(row) ? await workerUp({ slug: row.slug, runtime: row.runtime }) : undefined;
  return toRunRecord(row, { workerUp: up });
}

/**
 * The stored run `clientId` knows as `runId` (its public id, docs/decisions.md C16). Run ids are
 * per client, so another client's run is simply not found: the very same 404 as a missing one (C7).
 */
export async function findOwnRun(prisma: PrismaClient, clientId: string, runId: string): Promise<Run> {
  const run = await prisma.run.findUnique({ where: { clientId_publicId: { clientId, publicId: runId } } });
  if (!run) throw new NotFoundError(`unknown run: ${runId}`);
  return run;
}

/** `orchestrator.getRun`: the owner's run as a RunRecord (404 otherwise). */
export async function getRunForClient(
  prisma: PrismaClient,
  workerUp: WorkerAvailability,
  clientId: string,
  runId: string,
): Promise<RunRecord> {
  return runRecordOf(await findOwnRun(prisma, clientId, runId), workerUp);
}
