import { isUniqueViolation, lockWalletAccount, type PrismaClient, type Quote as QuoteRow } from '@svc/db';
import {
  ConflictError,
  NotFoundError,
  PaymentRequiredError,
  ServiceUnavailableError,
  ValidationError,
} from '@svc/errors';
import { absMicros, getBalance } from './balance';
import { paymentRequiredMessage } from './clearance';

/**
 * ms: how long a money move waits for a pooled connection (maxWait) and may run (timeout). The
 * per-client lock makes concurrent holds of one client queue behind each other, so both are far
 * above Prisma's defaults (2 s / 5 s), which a burst of 50 holds on a pool of 10 could exceed.
 */
export const MONEY_TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

/** What the orchestrator asks before it queues a run (wallet.holdForRun). */
export interface HoldRequest {
  clientId: string;
  runId: string;
  quoteId: string;
  slug: string;
  /** SHA-256 (hex) of the parsed input of the run: it must be the input the quote priced. */
  inputHash: string;
}

export interface HoldResult {
  /** The stored quote: its price is the promise the run is charged at. */
  quote: QuoteRow;
  /** micro-USD held for the run (0 for a free quote: no ledger line). */
  heldMicros: bigint;
}

/**
 * Checks the quote and holds its price for the run, under the client's lock (design "Wallet").
 * Order: 404 unknown quote (or another client's: the same words); 422 another capability or input
 * (these never change, so a retry fails them too); then, for a priced quote, an existing hold of the
 * run is returned as it is (idempotent: a retry after a timeout holds nothing twice), or 409 when
 * that hold was captured or released already; 409 expired; 402 when the price no longer fits the
 * balance or the spend cap, checked on a snapshot read under the lock whatever the quote's own
 * clearance said.
 */
export async function holdForRun(
  prisma: PrismaClient,
  request: HoldRequest,
  options: { now?: Date; deadline?: number } = {},
): Promise<HoldResult> {
  const now = options.now ?? new Date();
  const quote = await prisma.quote.findUnique({ where: { id: request.quoteId } });
  checkQuote(quote, request);
  if (quote.priceMicros === 0n) {
    checkNotExpired(quote, now);
    // A free run leaves no ledger line: the mark is what keeps its quote from the clean-up.
    await markUsedByRun(prisma, quote.id);
    return { quote, heldMicros: 0n };
  }

  try {
    return await prisma.$transaction(async (tx) => {
      await lockWalletAccount(tx, request.clientId);
      const lines = await tx.ledgerEntry.findMany({
        where: { runId: request.runId, kind: { in: ['hold', 'capture', 'release'] } },
      });
      const existing = lines.find((line) => line.kind === 'hold');
      if (existing) {
        if (existing.clientId !== request.clientId) throw runIdTaken(request.runId);
        // Settled already (e.g. released as an orphan after the run's transaction rolled back): the
        // quote served its run; holding again under the same id would be a run nobody can charge.
        if (lines.some((line) => line.kind !== 'hold')) {
          throw new ConflictError(`quote_id ${request.quoteId} has already been used for a run; quote again`);
        }
        return { quote, heldMicros: absMicros(existing.amountMicros) };
      }
      checkNotExpired(quote, now);
      const snapshot = await getBalance(tx, request.clientId, { now });
      const refusal = paymentRequiredMessage(quote.priceMicros, snapshot);
      if (refusal !== null) throw new PaymentRequiredError(refusal);
      await tx.ledgerEntry.create({
        data: {
          clientId: request.clientId,
          kind: 'hold',
          // Signed as in docs/decisions.md W3: a hold is written negative, its size is |amount|.
          amountMicros: -quote.priceMicros,
          runId: request.runId,
          slug: quote.slug,
          note: `hold for run ${request.runId}`,
          createdAt: now,
        },
      });
      // The caller has given up waiting: roll back rather than hold money for an answer nobody
      // reads. The orchestrator recorded the run (hold pending) before asking, so nothing is lost:
      // a retry with the same key, or its dispatcher, asks again. A hold committed just before a
      // timeout is still possible; that second ask finds and reuses it (the idempotent branch above).
      if (options.deadline !== undefined && Date.now() > options.deadline) {
        throw new ServiceUnavailableError('wallet hold abandoned: the caller stopped waiting');
      }
      return { quote, heldMicros: quote.priceMicros };
    }, MONEY_TRANSACTION_OPTIONS);
  } catch (err) {
    // Only another client's hold of the same run id can collide: this client's are serialized by the lock.
    if (isUniqueViolation(err)) throw runIdTaken(request.runId);
    throw err;
  }
}

/** The quote checks that never change for a quote (design "Errors"); narrows `quote` to a row. */
export function checkQuote(quote: QuoteRow | null, request: HoldRequest): asserts quote is QuoteRow {
  // Another client's quote is answered exactly like a missing one: nothing about it leaks.
  if (quote === null || quote.clientId !== request.clientId) {
    throw new NotFoundError(`unknown quote_id: ${request.quoteId}`);
  }
  if (quote.slug !== request.slug) {
    throw new ValidationError(
      `quote_id ${request.quoteId} was issued for capability ${quote.slug}, not ${request.slug}`,
    );
  }
  if (quote.inputHash !== request.inputHash) {
    throw new ValidationError(
      `quote_id ${request.quoteId} was issued for a different input; quote this input again`,
    );
  }
}

/** 409 once `expires_at` has passed (the instant itself included: the quote is valid before it). */
export function checkNotExpired(quote: QuoteRow, now: Date): void {
  if (quote.expiresAt.getTime() <= now.getTime()) {
    throw new ConflictError(`quote_id ${quote.id} expired at ${quote.expiresAt.toISOString()}; quote again`);
  }
}

/**
 * Marks a quote as used by a run (`detail.used_by_run`), so quote-cleanup.ts keeps it. Priced quotes
 * need no mark: their hold line in the ledger says the same.
 */
async function markUsedByRun(prisma: PrismaClient, quoteId: string): Promise<void> {
  await prisma.$executeRaw`
    UPDATE wallet.quotes
       SET detail = jsonb_set(COALESCE(detail, '{}'::jsonb), '{used_by_run}', 'true'::jsonb)
     WHERE id = ${quoteId}::uuid
       AND (detail IS NULL OR detail->'used_by_run' IS DISTINCT FROM 'true'::jsonb)`;
}

function runIdTaken(runId: string): ConflictError {
  return new ConflictError(`run_id ${runId} already has a hold`);
}
