import type { PriceDetail, Quote, RunRecord } from '@svc/contracts';
import { isUniqueViolation, type Prisma, type PrismaClient, type Run } from '@svc/db';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { crashPoint } from '@svc/service-kit';
import { capabilityJobFor, runJobId } from './dispatch';
import { runRecordOf, type WorkerAvailability } from './get-run';
import { announceFinal, confirmPendingRun, type PendingHoldDeps } from './pending-hold';
import { freeRunQuote } from './quote';
import type { StoredRun } from './run-finished';
import { storedQuote } from './run-record';

export type { HoldRequest, HoldResponse } from './pending-hold';

/**
 * What recording a run needs; every port may throw (AppErrors from the wallet, 503 when down). No
 * port is called inside a database transaction: each statement commits on its own (issue 15).
 */
export interface StartRunDeps extends PendingHoldDeps {
  workerUp: WorkerAvailability;
  /** Clock for plan times and a free run's quote; default: now. */
  now?: () => Date;
}

export interface StartRunResult {
  /** True when the Idempotency-Key named an existing run with the same request: nothing new was recorded. */
  replay: boolean;
  run: RunRecord;
  quote: Quote | null;
}

/** The run a request inserts (ids, parsed input, price, mode); `result` makes it final at creation. */
export interface RunDraft {
  /** The internal id (decisions C16). */
  id: string;
  /** The id the owner sees; default `id`. */
  publicId?: string | undefined;
  clientId: string;
  slug: string;
  clientType: string;
  input: Prisma.InputJsonObject;
  requestHash: string;
  idempotencyKey: string | null;
  /** micro-USD: the computed price; a quoted run keeps its quote's (the promise) once confirmed. */
  priceMicros: bigint;
  /** How the price was reached: shown on a free run's own quote. */
  priceDetail?: PriceDetail | undefined;
  runtime: string;
  /** Effective execution status (supported, requires_worker, plan_only). */
  executionStatus: string;
  /** plan_only: the plan, stored as the result of a run inserted `completed` (no worker). */
  result?: Prisma.InputJsonObject | undefined;
  /** The input's uploads as resolved (ResolvedFile[]); absent for capabilities without files. */
  files?: Prisma.InputJsonArray | undefined;
  /** A free run's quote when the wallet issued it (crt's own quote); default: a zero-price quote of its own. */
  quote?: Quote | undefined;
}

/** One way of starting a run (crt's endpoint, or any capability): the parts that differ. */
export interface StartRunFlow {
  clientId: string;
  idempotencyKey?: string | undefined;
  /** The client's quote: the run is recorded with its hold pending and the wallet holds the quote. */
  quoteId?: string | undefined;
  /**
   * A run id the client chose (crt's quote_id, spec §2.3; decisions C16): the run's public id for this
   * client only. The run is free and gets a fresh internal id, so no other client's id matters.
   */
  chosenRunId?: string | undefined;
  /** runRequestHash of the parsed request: what an Idempotency-Key stands for (C3). */
  requestHash: string;
  /** 409 text for a quote_id already used as a run id (C5). */
  quoteTakenMessage: string;
  /**
   * The run to insert under the internal id `runId` (quote_id ?? a fresh UUID), after the checks made
   * once no replay answered (a replay answers even when they would now fail, e.g. its uploads
   * expired since); throws.
   */
  prepare(runId: string): Promise<RunDraft>;
  /** The fresh run id when no quote_id names it. */
  newRunId(): string;
}

/**
 * Lost races resolved before giving up. A unique violation means the competing run is committed,
 * so the second look always finds it; a third round only guards against a run deleted meanwhile
 * (a pending run undone by a refusal).
 */
const MAX_ROUNDS = 3;

/**
 * Records a run and hands it on, or finds the run the request already stands for (docs/decisions.md
 * C3, C5, Q3; issue 15):
 * - one SELECT looks up the Idempotency-Key and the quote_id (or chosen id): a key already used by
 *   this client with the same request → replay (a run still pending its hold is confirmed first);
 *   another → 422;
 * - an id the client already named a run with → 409 (unless it is this very request, still pending);
 *   a quote_id that is another client's run's internal id → the flow's own checks, then 404 like an
 *   unknown quote_id (issue 13; a chosen id gets a fresh internal id, so it never meets another's);
 * - otherwise the flow's checks, then ONE autocommit INSERT. A free run without a quote is inserted
 *   with its own zero-price quote and its first hand-over (`dispatches = 1`, `job_id`), then queued:
 *   two statements at most and one queue add. A quoted run is inserted with `hold_pending` and
 *   confirmed by confirmPendingRun (wallet hold, uploads, UPDATE, queue). A concurrent twin (same key
 *   or quote_id) hits a unique index and is resolved again as above.
 * No service is called inside a transaction: a crash between steps leaves a pending run that a retry
 * or the dispatcher finishes or undoes, or a handed-over run whose job the dispatcher finds missing.
 */
export async function startRun(deps: StartRunDeps, flow: StartRunFlow): Promise<StartRunResult> {
  for (let round = 1; ; round += 1) {
    const found = await answerExisting(deps, flow, await lookUp(deps.prisma, flow));
    if (found !== undefined) return found;
    const draft = await flow.prepare(flow.quoteId ?? flow.newRunId());
    if (flow.chosenRunId !== undefined && (flow.quoteId !== undefined || draft.priceMicros !== 0n)) {
      // A chosen id is not the internal id, and ledger lines name runs by their internal id: only a
      // free run without a quote of its own to hold may be named by its client (decisions C16).
      throw new TypeError('a run named by its client must be free and carry no quote_id to hold');
    }
    let row: Run;
    try {
      row = await insertRun(deps, flow, draft);
    } catch (err) {
      if (!isUniqueViolation(err) || round >= MAX_ROUNDS) throw err;
      deps.logger.debug({ round }, 'start run: lost a race on a unique index; resolving again');
      continue;
    }
    crashPoint('orchestrator.run-recorded');
    if (row.holdPending) return answer(deps, false, await confirmPendingRun(deps, row));
    await afterInsert(deps, row);
    return answer(deps, false, { row, quote: storedQuote(row) });
  }
}

/** The runs a request's key and quote_id (or chosen run id) name, in one SELECT. */
interface Existing {
  byKey: Run | undefined;
  /** The client's own run named by the id: its public id is the quote_id or the chosen id. */
  byId: Run | undefined;
  /** Another client's run whose internal id is this quote_id (the generic route only). */
  foreign: Run | undefined;
}

async function lookUp(prisma: PrismaClient, flow: StartRunFlow): Promise<Existing> {
  const { clientId, idempotencyKey: key, quoteId, chosenRunId } = flow;
  const named = quoteId ?? chosenRunId;
  const or: Prisma.RunWhereInput[] = [];
  if (key !== undefined) or.push({ clientId, idempotencyKey: key });
  if (named !== undefined) or.push({ clientId, publicId: named });
  // A quote_id becomes the internal id too: another client's run may already have it.
  if (quoteId !== undefined) or.push({ id: quoteId });
  if (or.length === 0) return { byKey: undefined, byId: undefined, foreign: undefined };
  const rows = await prisma.run.findMany({ where: or.length === 1 ? or[0] : { OR: or } });
  const own = rows.filter((r) => r.clientId === clientId);
  return {
    byKey: key === undefined ? undefined : own.find((r) => r.idempotencyKey === key),
    byId: named === undefined ? undefined : own.find((r) => r.publicId === named),
    foreign:
      quoteId === undefined ? undefined : rows.find((r) => r.id === quoteId && r.clientId !== clientId),
  };
}

/** The answer an existing run gives this request (replay, 409, 404, 422), or undefined: record it. */
async function answerExisting(
  deps: StartRunDeps,
  flow: StartRunFlow,
  { byKey, byId, foreign }: Existing,
): Promise<StartRunResult | undefined> {
  if (byKey !== undefined) {
    if (byKey.requestHash !== flow.requestHash) {
      // docs/decisions.md C3: 422, as in the IETF Idempotency-Key draft.
      throw new ValidationError(
        `Idempotency-Key "${flow.idempotencyKey}" was already used with a different request (run ${byKey.id}); send a new key for a new request`,
      );
    }
    return replay(deps, byKey);
  }
  if (byId !== undefined) {
    // This very request, recorded but not confirmed (a timeout, a crash): finish it rather than 409.
    if (byId.holdPending && byId.requestHash === flow.requestHash) return replay(deps, byId);
    // The client's own quote or chosen id, already run once (C5, C16).
    throw new ConflictError(flow.quoteTakenMessage);
  }
  if (foreign !== undefined && flow.quoteId !== undefined) {
    // Another client's quote (its run has the quote's id): answered exactly like a quote_id that
    // names nothing (issue 13, decisions Q7): the same checks first, then the wallet's 404 words.
    await flow.prepare(flow.quoteId);
    throw unknownQuote(flow.quoteId);
  }
  return undefined;
}

/** A replay; a run still pending its hold is confirmed first (or undone, and the refusal thrown). */
async function replay(deps: StartRunDeps, row: Run): Promise<StartRunResult> {
  if (row.holdPending) return answer(deps, true, await confirmPendingRun(deps, row));
  return answer(deps, true, { row, quote: storedQuote(row) });
}

async function answer(
  deps: StartRunDeps,
  isReplay: boolean,
  { row, quote }: { row: StoredRun; quote: Quote | null },
): Promise<StartRunResult> {
  return { replay: isReplay, run: await runRecordOf(row, deps.workerUp), quote };
}

/**
 * The 404 of a quote_id that is not one of the client's quotes: the wallet's words for an unknown
 * quote (wallet holds.ts checkQuote), so an unknown and another client's id cannot be told apart.
 */
function unknownQuote(quoteId: string): NotFoundError {
  return new NotFoundError(`unknown quote_id: ${quoteId}`);
}

/**
 * The one INSERT (autocommit). Quoted: `hold_pending`, status queued (a pending run is never final,
 * so no settlement can run before its hold exists), no job. Free: its own zero-price quote, and
 * either final at once (plan_only) or with its first hand-over recorded before the job is queued.
 */
async function insertRun(deps: StartRunDeps, flow: StartRunFlow, draft: RunDraft): Promise<Run> {
  const now = (deps.now ?? (() => new Date()))();
  const { result, priceDetail, quote: issued, publicId = draft.id, ...columns } = draft;
  // The quote_id a client sees is the run id it sees: its own quote, its chosen id, or the run's id.
  const base = { ...columns, publicId, quoteId: publicId };
  if (flow.quoteId !== undefined) {
    return deps.prisma.run.create({
      data: { ...base, status: 'queued', holdPending: true, ...(result === undefined ? {} : { result }) },
    });
  }
  const quote = issued ?? freeRunQuote(publicId, draft.slug, now, priceDetail);
  const free = { ...base, quote, priceMicros: 0n };
  return deps.prisma.run.create({
    data:
      result === undefined
        ? { ...free, status: 'queued', dispatches: 1, jobId: runJobId(draft.id, 1), dispatchedAt: now }
        : // plan_only: final at creation, no attempt made (spec §2.1 "no server processing").
          { ...free, status: 'completed', result, startedAt: now, finishedAt: now },
  });
}

/**
 * After the INSERT of a free run: a final run (plan_only) is announced; any other is queued under
 * the job id its row names. Failures are logged, not thrown: the run is durable and the dispatcher
 * hands over again a run whose job is missing.
 */
async function afterInsert(deps: StartRunDeps, row: Run): Promise<void> {
  if (row.jobId === null) {
    await announceFinal(deps, row);
    return;
  }
  try {
    await deps.enqueue({ ...capabilityJobFor(row), jobId: row.jobId });
  } catch (err) {
    // Redis down, or (a bug) an input that cannot become a job: the dispatcher re-hands over or fails it.
    deps.logger.warn({ run_id: row.id, err }, 'run not queued yet: the dispatcher will hand it over');
  }
}
