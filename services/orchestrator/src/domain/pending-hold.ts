import {
  microsFromUsd,
  type Quote,
  ResolvedFile,
  type RpcRequestInput,
  type RpcResponse,
} from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { isAppError, ServiceUnavailableError } from '@svc/errors';
import type { Logger } from '@svc/log';
import { crashPoint } from '@svc/service-kit';
import { z } from 'zod';
import { capabilityJobFor, type EnqueueCapabilityJob, runJobId } from './dispatch';
import type { ResolveFiles } from './input-files';
import { inputHash } from './request-hash';
import { type RunFinishedEvent, runFinishedEvent, type StoredRun } from './run-finished';
import { storedQuote } from './run-record';
import { RETURNING_STORED_RUN, returnedRun } from './run-rows';
import { type SettleRun, settleFinalRun } from './settlement';

export type HoldRequest = RpcRequestInput<'wallet', 'holdForRun'>;
export type HoldResponse = RpcResponse<'wallet', 'holdForRun'>;

/** What finishing a pending run needs; every port may throw (AppErrors, 503 when down). */
export interface PendingHoldDeps {
  prisma: PrismaClient;
  /** The wallet's `holdForRun`: idempotent per run id (a second call returns the same hold). */
  holdForRun(request: HoldRequest): Promise<HoldResponse>;
  /** The upload service's `resolveFiles`; with `run_id` it marks the uploads used (idempotent). */
  resolveFiles: ResolveFiles;
  enqueue: EnqueueCapabilityJob;
  /** `run.finished` of a run final once confirmed (plan_only); a failure is logged. */
  publishFinished(event: RunFinishedEvent): Promise<void>;
  /** The wallet's `settle` (a paid plan_only run is captured once confirmed; the sweep re-drives). */
  settle: SettleRun;
  logger: Logger;
}

/** A run recorded with `hold_pending = true`: what confirming its hold needs (a Run row fits). */
export interface PendingRun {
  id: string;
  clientId: string;
  slug: string;
  /** The client's quote: the hold's promise. Pending runs always have one. */
  quoteId: string | null;
  /** The stored, parsed input: the quote's input hash is computed from it. */
  input: unknown;
  /** Stored ResolvedFile[] (null without files): marked used once the hold is confirmed. */
  files: unknown;
  executionStatus: string;
  idempotencyKey: string | null;
}

/** A confirmed run and the quote stored with it. */
export interface ConfirmedRun {
  row: StoredRun;
  quote: Quote | null;
}

const StoredFiles = z.array(ResolvedFile);

/**
 * Finishes a run recorded with its hold pending (issue 15; docs/decisions.md): wallet.holdForRun →
 * (files) uploads marks them used by the run → one UPDATE: hold confirmed, quote and price stored,
 * first hand-over (`dispatches = 1`, `job_id`) or, for plan_only, completed → crash point
 * `orchestrator.hold-confirmed` → the job is queued. Every step may be repeated: the hold and the
 * mark are idempotent per run, the UPDATE is conditional (`hold_pending`), and only its winner queues
 * the job. Called by the request that recorded the run, by a retry with its key, and by the
 * dispatcher for runs left pending (a crash, a timeout).
 *
 * - The wallet or upload service refuses (4xx: no funds, quote expired or unknown, upload gone): the
 *   pending row is deleted (no run, as before issue 15) and the refusal rethrown. An upload refusal
 *   comes after the wallet's hold: the hold is released first, and the row is deleted only once the
 *   wallet confirmed it (wallet down: the row stays pending and the next attempt undoes it), so no
 *   hold is ever left without its run.
 * - A service does not answer (503, timeout): the row stays pending and a 503 says which service,
 *   that the run was recorded, and how to retry; the dispatcher finishes or undoes it meanwhile.
 */
export async function confirmPendingRun(deps: PendingHoldDeps, run: PendingRun): Promise<ConfirmedRun> {
  const quoteId = run.quoteId;
  if (quoteId === null) throw new TypeError(`pending run ${run.id} has no quote`);
  const held = await refusalUndoes(deps, run, 'wallet', () =>
    deps.holdForRun({
      client_id: run.clientId,
      run_id: run.id,
      quote_id: quoteId,
      slug: run.slug,
      input_hash: inputHash(run.input),
    }),
  );
  const uploadIds = uploadIdsOf(run);
  if (uploadIds.length > 0) {
    // The hold is the wallet's yes: only now are the uploads this run's (kept while it is).
    await refusalUndoes(deps, run, 'uploads', () =>
      deps.resolveFiles({ client_id: run.clientId, slug: run.slug, upload_ids: uploadIds, run_id: run.id }),
    );
  }
  const row = await confirmRow(deps.prisma, run, held.quote);
  if (row === undefined) return confirmedElsewhere(deps.prisma, run);
  crashPoint('orchestrator.hold-confirmed');
  if (row.jobId !== null) await handOver(deps, run, row.jobId);
  else await announceFinal(deps, row);
  return { row, quote: held.quote };
}

/**
 * A run final at creation (plan_only): waiters are told and, if paid, its hold is captured. Failures
 * are logged, not thrown: the run is durable, waiters also poll, and the sweep re-drives settlement.
 */
export async function announceFinal(
  deps: Pick<PendingHoldDeps, 'prisma' | 'publishFinished' | 'settle' | 'logger'>,
  row: StoredRun,
): Promise<void> {
  await deps.publishFinished(runFinishedEvent(row)).catch((err: unknown) => {
    deps.logger.warn({ run_id: row.id, err }, 'run.finished not published');
  });
  await settleFinalRun(deps, row).catch((err: unknown) => {
    deps.logger.warn({ run_id: row.id, err }, 'settlement not confirmed yet: the dispatcher will ask again');
  });
}

/** The one UPDATE that ends the pending state; undefined when another caller got there first. */
async function confirmRow(
  prisma: PrismaClient,
  run: PendingRun,
  quote: Quote,
): Promise<StoredRun | undefined> {
  const quoteJson = JSON.stringify(quote);
  const priceMicros = microsFromUsd(quote.price_usd);
  if (run.executionStatus === 'plan_only') {
    // Final at creation (spec §2.1: no server processing): no hand-over, the plan is the result.
    return returnedRun(
      await prisma.$queryRaw<unknown[]>`
        UPDATE orchestrator.runs
        SET hold_pending = false, quote = ${quoteJson}::jsonb, price_micros = ${priceMicros},
          status = 'completed'::orchestrator.run_status, started_at = now(), finished_at = now(),
          updated_at = now()
        WHERE id = ${run.id}::uuid AND hold_pending AND status = 'queued'::orchestrator.run_status
        ${RETURNING_STORED_RUN}`,
    );
  }
  return returnedRun(
    await prisma.$queryRaw<unknown[]>`
      UPDATE orchestrator.runs
      SET hold_pending = false, quote = ${quoteJson}::jsonb, price_micros = ${priceMicros},
        dispatches = 1, job_id = ${runJobId(run.id, 1)}, dispatched_at = now(), updated_at = now()
      WHERE id = ${run.id}::uuid AND hold_pending AND status = 'queued'::orchestrator.run_status
      ${RETURNING_STORED_RUN}`,
  );
}

/**
 * Another caller confirmed (or undid) the run between our hold and our UPDATE: answer with the row
 * as it is now, or, when it was undone meanwhile (a refusal seen by the other caller), 503: a retry
 * with the same key records it again and finds the hold the wallet keeps for the run id.
 */
async function confirmedElsewhere(prisma: PrismaClient, run: PendingRun): Promise<ConfirmedRun> {
  const now = await prisma.run.findUnique({ where: { id: run.id } });
  if (now === null || now.holdPending) {
    throw new ServiceUnavailableError(
      `run ${run.id} changed while its hold was confirmed; ${retryAdvice(run.idempotencyKey)}`,
    );
  }
  return { row: now, quote: storedQuote(now) };
}

/** Queues the first hand-over's job; a failure is logged: the dispatcher re-hands a missing job over. */
async function handOver(deps: PendingHoldDeps, run: PendingRun, jobId: string): Promise<void> {
  try {
    await deps.enqueue({ ...capabilityJobFor(run), jobId });
  } catch (err) {
    deps.logger.warn({ run_id: run.id, err }, 'run not queued yet: the dispatcher will hand it over');
  }
}

/**
 * Runs one service call of a pending run: a refusal (4xx) deletes the pending row and is rethrown;
 * a service that does not answer leaves the row pending and becomes a 503 that names the service.
 */
async function refusalUndoes<T>(
  deps: PendingHoldDeps,
  run: PendingRun,
  service: 'wallet' | 'uploads',
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isAppError(err) && err.status < 500) {
      if (service === 'uploads') await releaseHold(deps, run, err);
      await deps.prisma.$executeRaw`
        DELETE FROM orchestrator.runs
        WHERE id = ${run.id}::uuid AND hold_pending AND status = 'queued'::orchestrator.run_status`;
      throw err;
    }
    throw recordedButUnconfirmed(service, run, err);
  }
}

/**
 * Gives back the hold of a pending run whose uploads were refused (the wallet said yes first).
 * Throws a 503 when the wallet does not answer: the row stays pending, so the dispatcher or a retry
 * repeats the whole undo (the hold call then returns the same hold; the release applies once).
 */
async function releaseHold(deps: PendingHoldDeps, run: PendingRun, refusal: Error): Promise<void> {
  try {
    await deps.settle({
      run_id: run.id,
      client_id: run.clientId,
      outcome: 'release',
      reason: `run not started: ${refusal.message}`.slice(0, 200),
    });
  } catch (err) {
    throw recordedButUnconfirmed('wallet', run, err);
  }
}

/** The 503 of a service that did not answer once the run row exists (issue 15 finding 3). */
export function recordedButUnconfirmed(
  service: string,
  run: PendingRun,
  cause: unknown,
): ServiceUnavailableError {
  const what =
    isAppError(cause) && cause.status === 503 ? cause.message : `${service} service is unavailable`;
  const named = what.startsWith(service) ? what : `${service} service: ${what}`;
  return new ServiceUnavailableError(
    `${named}; run ${run.id} was recorded but its hold is not confirmed yet: ${retryAdvice(run.idempotencyKey)}`,
    { cause },
  );
}

/** How the client retries without starting a second run. */
function retryAdvice(idempotencyKey: string | null): string {
  return idempotencyKey === null
    ? 'retry the same request with the same quote_id'
    : 'retry with the same Idempotency-Key';
}

function uploadIdsOf(run: PendingRun): string[] {
  if (run.files === null || run.files === undefined) return [];
  const files = StoredFiles.safeParse(run.files);
  // Stored by us from the upload service's answer: unreadable means a bug, not a client error.
  if (!files.success) throw new TypeError(`run ${run.id} has unreadable stored files`);
  return files.data.map((file) => file.upload_id);
}
