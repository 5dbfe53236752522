import {
  isTerminalRunState,
  type Quote,
  type RpcRequestInput,
  type RpcResponse,
  type RunRecord,
} from '@svc/contracts';
import { isUniqueViolation, type Prisma, type PrismaClient, type Run } from '@svc/db';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import type { Logger } from '@svc/log';
import { type CapabilityJob, capabilityJobFor, type EnqueueCapabilityJob, markDispatched } from './dispatch';
import { runRecordOf, type WorkerAvailability } from './get-run';
import { type RunFinishedEvent, runFinishedEvent } from './run-finished';
import { storedQuote } from './run-record';
import { type EnqueueSettle, queueSettlement } from './settlement';

/** What the wallet is asked for (rpc `wallet.issueQuote`, bus RPC catalog). */
export type QuoteRequest = RpcRequestInput<'wallet', 'issueQuote'>;
export type HoldRequest = RpcRequestInput<'wallet', 'holdForRun'>;
export type HoldResponse = RpcResponse<'wallet', 'holdForRun'>;

/** What recording a run needs; every port may throw (AppErrors from the wallet, 503 when down). */
export interface StartRunDeps {
  prisma: PrismaClient;
  /** The wallet's `issueQuote` (a zero-price quote whose id is the run id, for free runs without one). */
  issueQuote(request: QuoteRequest): Promise<Quote>;
  /** The wallet's `holdForRun`: checks the client's quote and holds its price (404/409/422/402). */
  holdForRun(request: HoldRequest): Promise<HoldResponse>;
  /** Hands the run to its worker queue (deduplicated by job id `run-<id>`); throws when Redis is down. */
  enqueue: EnqueueCapabilityJob;
  /** Queues a paid final run's settlement (plan_only runs finish at creation). */
  enqueueSettle: EnqueueSettle;
  /** `run.finished` for a run that is final at creation (plan_only). */
  publishFinished(event: RunFinishedEvent): Promise<void>;
  workerUp: WorkerAvailability;
  logger: Logger;
  /**
   * ms: bound on the run transaction, which spans the wallet call and, for a run with files, the
   * upload service's call marking them used (their RPC timeouts plus a margin).
   */
  transactionTimeoutMs: number;
  /** Clock for quote expiry and plan times; default: now. */
  now?: () => Date;
}

export interface StartRunResult {
  /** True when the Idempotency-Key named an existing run with the same request: nothing was done. */
  replay: boolean;
  run: RunRecord;
  quote: Quote | null;
}

/** The run a request inserts (ids, parsed input, price, mode); `result` makes it final at creation. */
export interface RunDraft {
  id: string;
  clientId: string;
  slug: string;
  clientType: string;
  input: Prisma.InputJsonObject;
  requestHash: string;
  idempotencyKey: string | null;
  /** micro-USD: the computed price; replaced by the quote's (the promise) in `quote`. */
  priceMicros: bigint;
  runtime: string;
  /** Effective execution status (supported, requires_worker, plan_only). */
  executionStatus: string;
  /** plan_only: the plan, stored as the result of a run inserted `completed` (no worker). */
  result?: Prisma.InputJsonObject | undefined;
  /** The input's uploads as resolved (ResolvedFile[]); absent for capabilities without files. */
  files?: Prisma.InputJsonArray | undefined;
}

/** One way of starting a run (crt's endpoint, or any capability): the parts that differ. */
export interface StartRunFlow {
  clientId: string;
  idempotencyKey?: string | undefined;
  quoteId?: string | undefined;
  /** runRequestHash of the parsed request: what an Idempotency-Key stands for (C3). */
  requestHash: string;
  /** 409 text for a quote_id already used as a run id (C5). */
  quoteTakenMessage: string;
  /**
   * The run to insert under `runId` (quote_id ?? a fresh UUID), after the checks made once no replay
   * answered (a replay answers even when they would now fail, e.g. its uploads expired since); throws.
   */
  prepare(runId: string): Promise<RunDraft>;
  /**
   * Inside the run transaction, after the insert: the quote stored with the run and the price the
   * run keeps. A throw rolls the run back (402/404/409/422 leave no run row).
   */
  quote(draft: RunDraft): Promise<{ quote: Quote; priceMicros: bigint }>;
  /** The fresh run id when no quote_id names it. */
  newRunId(): string;
}

/**
 * Lost races resolved before giving up. A unique violation means the competing run is committed,
 * so the second look always finds it; a third round only guards against a run deleted meanwhile.
 */
const MAX_ROUNDS = 3;

/**
 * Records a run and hands it on, or finds the run the request already stands for (docs/decisions.md
 * C3, C5, Q3):
 * - an Idempotency-Key already used by this client: the same request → replay; another → 422;
 * - a quote_id the client already used as a run id → 409; another client's → the flow's own checks,
 *   then 404 like an unknown quote_id (issue 13); then the flow's own checks;
 * - otherwise one transaction inserts the run and has the wallet quote or hold for it. A concurrent
 *   twin (same key or same quote_id) hits a unique index, rolls back and is resolved again as above.
 * After the commit a running run is queued (if Redis is down it stays undispatched and the
 * dispatcher queues it later) and a run final at creation (plan_only) is announced.
 */
export async function startRun(deps: StartRunDeps, flow: StartRunFlow): Promise<StartRunResult> {
  for (let round = 1; ; round += 1) {
    const replay = await findReplay(deps, flow);
    if (replay) return replay;
    if (flow.quoteId !== undefined) {
      const taken = await deps.prisma.run.findUnique({
        where: { id: flow.quoteId },
        select: { id: true, clientId: true },
      });
      if (taken && taken.clientId !== flow.clientId) {
        // Another client's quote (its run has the quote's id): answered exactly like a quote_id that
        // names nothing (issue 13, decisions Q7): the same checks first, then the wallet's 404 words.
        await flow.prepare(flow.quoteId);
        throw unknownQuote(flow.quoteId);
      }
      if (taken) {
        // A twin with the same key may have committed between the two looks: it is a replay then.
        const late = await findReplay(deps, flow);
        if (late) return late;
        // The client's own quote, already run once (C5).
        throw new ConflictError(flow.quoteTakenMessage);
      }
    }
    const draft = await flow.prepare(flow.quoteId ?? flow.newRunId());
    try {
      const row = await createRun(deps, flow, draft);
      await afterCommit(deps, row);
      return { replay: false, run: await runRecordOf(row, deps.workerUp), quote: storedQuote(row) };
    } catch (err) {
      if (!isUniqueViolation(err) || round >= MAX_ROUNDS) throw err;
      deps.logger.debug({ round }, 'start run: lost a race on a unique index; resolving again');
    }
  }
}

/**
 * The 404 of a quote_id that is not one of the client's quotes: the wallet's words for an unknown
 * quote (wallet holds.ts checkQuote), so an unknown and another client's id cannot be told apart.
 */
function unknownQuote(quoteId: string): NotFoundError {
  return new NotFoundError(`unknown quote_id: ${quoteId}`);
}

/** The replay this request is, or undefined when its key names no run; 422 for a key reused otherwise. */
async function findReplay(deps: StartRunDeps, flow: StartRunFlow): Promise<StartRunResult | undefined> {
  const key = flow.idempotencyKey;
  if (key === undefined) return undefined;
  const run = await deps.prisma.run.findUnique({
    where: { clientId_idempotencyKey: { clientId: flow.clientId, idempotencyKey: key } },
  });
  if (!run) return undefined;
  if (run.requestHash !== flow.requestHash) {
    // docs/decisions.md C3: 422, as in the IETF Idempotency-Key draft.
    throw new ValidationError(
      `Idempotency-Key "${key}" was already used with a different request (run ${run.id}); send a new key for a new request`,
    );
  }
  return { replay: true, run: await runRecordOf(run, deps.workerUp), quote: storedQuote(run) };
}

/** Inserts the run and stores its quote with it, in one transaction. */
async function createRun(deps: StartRunDeps, flow: StartRunFlow, draft: RunDraft): Promise<Run> {
  const now = (deps.now ?? (() => new Date()))();
  const { result, ...columns } = draft;
  return deps.prisma.$transaction(
    async (tx) => {
      // First the insert: a concurrent twin blocks on the unique index here, before the wallet call.
      await tx.run.create({
        data: {
          ...columns,
          quoteId: draft.id,
          // plan_only: final at creation, no attempt made (spec §2.1 "no server processing").
          ...(result === undefined
            ? { status: 'queued' }
            : { status: 'completed', result, startedAt: now, finishedAt: now }),
        },
      });
      const { quote, priceMicros } = await flow.quote(draft);
      return tx.run.update({ where: { id: draft.id }, data: { quote, priceMicros } });
    },
    { timeout: deps.transactionTimeoutMs, maxWait: deps.transactionTimeoutMs },
  );
}

/**
 * After the commit: a final run (plan_only) is announced and, if paid, settled; any other is queued.
 * Failures are logged, not thrown: the run is durable and the dispatcher's sweep finishes the job.
 */
async function afterCommit(deps: StartRunDeps, row: Run): Promise<void> {
  if (isTerminalRunState(row.status)) {
    await deps.publishFinished(runFinishedEvent(row)).catch((err: unknown) => {
      deps.logger.warn({ run_id: row.id, err }, 'run.finished not published');
    });
    await queueSettlement(deps.prisma, deps.enqueueSettle, row).catch((err: unknown) => {
      deps.logger.warn({ run_id: row.id, err }, 'settlement not queued yet: the dispatcher will queue it');
    });
    return;
  }
  let job: CapabilityJob;
  try {
    job = capabilityJobFor(row);
  } catch (err) {
    // Cannot happen for input parsed by the capability's schema; the dispatcher fails such a run.
    deps.logger.error({ run_id: row.id, err }, 'run has no valid job payload');
    return;
  }
  try {
    await deps.enqueue(job);
  } catch (err) {
    deps.logger.warn({ run_id: row.id, err }, 'run not queued yet: the dispatcher will queue it');
    return;
  }
  await markDispatched(deps.prisma, row.id).catch((err: unknown) => {
    // The job is queued; a second enqueue by the dispatcher is deduplicated by its job id.
    deps.logger.warn({ run_id: row.id, err }, 'could not record dispatched_at');
  });
}
