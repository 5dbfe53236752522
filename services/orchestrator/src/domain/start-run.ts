import { randomUUID } from 'node:crypto';
import type { RpcRequestInput } from '@svc/bus';
import type { CrtInput, Quote, RunRecord } from '@svc/contracts';
import { isUniqueViolation, type PrismaClient, type Run } from '@svc/db';
import { ConflictError, ValidationError } from '@svc/errors';
import type { Logger } from '@svc/log';
import { type CrtJob, crtJobFor, type EnqueueCrtJob, markDispatched } from './dispatch';
import { crtRequestHash, inputHash } from './request-hash';
import { storedQuote, toRunRecord } from './run-record';

/** A parsed `orchestrator.startCrtRun` request. */
export interface StartCrtRunCommand {
  clientId: string;
  input: CrtInput;
  quoteId?: string | undefined;
  clientType: string;
  idempotencyKey?: string | undefined;
}

/** What the wallet is asked for (rpc `wallet.issueQuote`, bus RPC catalog). */
export type QuoteRequest = RpcRequestInput<'wallet', 'issueQuote'>;

export interface StartRunDeps {
  prisma: PrismaClient;
  /** The wallet's `issueQuote`; throws AppErrors (409/422 from the wallet, 503 when it is down). */
  issueQuote(request: QuoteRequest): Promise<Quote>;
  /** Hands the run to its worker queue (deduplicated by job id `run-<id>`); throws when Redis is down. */
  enqueueCrt: EnqueueCrtJob;
  logger: Logger;
  /** ms: bound on the run transaction, which spans the wallet call (wallet RPC timeout plus margin). */
  transactionTimeoutMs: number;
  /** Clock for quote expiry; default: now. */
  now?: () => Date;
}

export interface StartRunResult {
  /** True when the Idempotency-Key named an existing run with the same request: nothing was done. */
  replay: boolean;
  run: RunRecord;
  quote: Quote | null;
}

/**
 * Lost races resolved before giving up. A unique violation means the competing run is committed,
 * so the second look always finds it; a third round only guards against a run deleted meanwhile.
 */
const MAX_ROUNDS = 3;

/** crt is free (spec §1.7): the price the wallet is asked to quote. */
const CRT_PRICE_USD = '0';

/**
 * Records a crt run and queues it, or finds the run the request already stands for
 * (docs/decisions.md C3, C5):
 * - an Idempotency-Key already used by this client: the same request → replay; another → 422;
 * - a quote_id already used as a run id (any client) → 409;
 * - otherwise one transaction inserts the run and has the wallet issue its zero-price quote (id =
 *   run id). A concurrent twin (same key or same quote_id) hits a unique index, rolls back and is
 *   resolved again as above; a wallet failure rolls back too, leaving nothing behind.
 * After the commit the run is queued; if Redis is down it stays undispatched and the dispatcher
 * queues it later: the run is durable, so the answer is the same.
 */
export async function startCrtRun(deps: StartRunDeps, command: StartCrtRunCommand): Promise<StartRunResult> {
  const requestHash = crtRequestHash(command);
  for (let round = 1; ; round += 1) {
    const existing = await findExisting(deps.prisma, command, requestHash);
    if (existing) return existing;
    try {
      const created = await createRun(deps, command, requestHash);
      await dispatchCreated(deps, created.row);
      return { replay: false, run: toRunRecord(created.row), quote: created.quote };
    } catch (err) {
      if (!isUniqueViolation(err) || round >= MAX_ROUNDS) throw err;
      deps.logger.debug({ round }, 'start run: lost a race on a unique index; resolving again');
    }
  }
}

/** The replay this request is, or undefined when it names no existing run; throws 422/409 on misuse. */
async function findExisting(
  prisma: PrismaClient,
  command: StartCrtRunCommand,
  requestHash: string,
): Promise<StartRunResult | undefined> {
  const key = command.idempotencyKey;
  if (key !== undefined) {
    const run = await prisma.run.findUnique({
      where: { clientId_idempotencyKey: { clientId: command.clientId, idempotencyKey: key } },
    });
    if (run) {
      if (run.requestHash !== requestHash) {
        // docs/decisions.md C3: 422, as in the IETF Idempotency-Key draft.
        throw new ValidationError(
          `Idempotency-Key "${key}" was already used with a different request (run ${run.id}); send a new key for a new request`,
        );
      }
      return { replay: true, run: toRunRecord(run), quote: storedQuote(run) };
    }
  }
  if (command.quoteId !== undefined) {
    const taken = await prisma.run.findUnique({ where: { id: command.quoteId }, select: { id: true } });
    if (taken) {
      // The same words for every client: nothing about another client's runs leaks (C5).
      throw new ConflictError(
        `quote_id ${command.quoteId} has already been used for a run; quote again or omit quote_id`,
      );
    }
  }
  return undefined;
}

/** Inserts the run and stores the wallet's quote with it, in one transaction. */
async function createRun(
  deps: StartRunDeps,
  command: StartCrtRunCommand,
  requestHash: string,
): Promise<{ row: Run; quote: Quote }> {
  const runId = command.quoteId ?? randomUUID();
  return deps.prisma.$transaction(
    async (tx) => {
      // First the insert: a concurrent twin blocks on the unique index here, before the wallet call.
      await tx.run.create({
        data: {
          id: runId,
          clientId: command.clientId,
          slug: 'crt',
          status: 'queued',
          clientType: command.clientType,
          quoteId: runId,
          input: command.input,
          requestHash,
          idempotencyKey: command.idempotencyKey ?? null,
        },
      });
      const quote = await deps.issueQuote({
        quote_id: runId,
        client_id: command.clientId,
        slug: 'crt',
        price_usd: CRT_PRICE_USD,
        input_hash: inputHash(command.input),
      });
      assertUsable(quote, (deps.now ?? (() => new Date()))());
      const row = await tx.run.update({ where: { id: runId }, data: { quote } });
      return { row, quote };
    },
    { timeout: deps.transactionTimeoutMs, maxWait: deps.transactionTimeoutMs },
  );
}

/**
 * A quote the wallet already held (the client quoted first) may have expired: "after expires_at the
 * quote can no longer be used to start a run" (contracts Quote). A fresh one never has.
 */
function assertUsable(quote: Quote, now: Date): void {
  if (Date.parse(quote.expires_at) <= now.getTime()) {
    throw new ConflictError(
      `quote_id ${quote.quote_id} expired at ${quote.expires_at}; quote again or omit quote_id`,
    );
  }
}

/** Queues a just-committed run; on failure it stays undispatched for the dispatcher (logged, not thrown). */
async function dispatchCreated(deps: StartRunDeps, row: Run): Promise<void> {
  let job: CrtJob;
  try {
    job = crtJobFor(row);
  } catch (err) {
    // Cannot happen for input parsed by StartCrtRunRequest; the dispatcher fails such a run.
    deps.logger.error({ run_id: row.id, err }, 'run has no valid crt job payload');
    return;
  }
  try {
    await deps.enqueueCrt(job);
  } catch (err) {
    deps.logger.warn({ run_id: row.id, err }, 'run not queued yet: the dispatcher will queue it');
    return;
  }
  await markDispatched(deps.prisma, row.id).catch((err: unknown) => {
    // The job is queued; a second enqueue by the dispatcher is deduplicated by its job id.
    deps.logger.warn({ run_id: row.id, err }, 'could not record dispatched_at');
  });
}
