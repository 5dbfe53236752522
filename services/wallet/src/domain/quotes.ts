import { PriceDetail, WalletClearance } from '@svc/contracts';
import { isUniqueViolation, type PrismaClient, type Quote as QuoteRow } from '@svc/db';
import { ConflictError, ValidationError } from '@svc/errors';
import { z } from 'zod';
import { getBalance } from './balance';
import { clearAgainstBalance, FREE_CLEARANCE } from './clearance';

/** ms: default lifetime of a quote (QUOTE_TTL_MS): long enough to confirm a price, short enough not to promise it for days. */
export const DEFAULT_QUOTE_TTL_MS = 15 * 60_000;

/** What the caller asks the wallet to price and clear. Amounts in micro-USD. */
export interface QuoteRequest {
  /** Chosen by the caller (the orchestrator uses the run id); the wallet keeps one quote per id. */
  quoteId: string;
  clientId: string;
  slug: string;
  priceMicros: bigint;
  /** SHA-256 (hex) of the canonical input priced: a run must send the same input (spec §4 rule 1). */
  inputHash: string;
  /** How the price was reached (stored with the quote, shown with it). */
  priceDetail?: PriceDetail;
  /** Issued for a run being recorded (its id is the run id): used by that run from the start. */
  forRun?: boolean;
}

/**
 * `wallet.quotes.detail`: what the quote showed besides its columns: the whole clearance with its
 * figures and the price detail (docs/decisions.md Q2). Null on quotes stored before it existed.
 */
export const StoredQuoteDetail = z.object({
  wallet_clearance: WalletClearance,
  price_detail: PriceDetail.optional(),
  /**
   * Whether a run used the quote (issued for a run, or named by one in `holdForRun`): a used quote
   * is kept with its run; an unused one is deleted once expired for longer than the grace period
   * (quote-cleanup.ts). Absent on quotes stored before issue 13: those are kept (nothing says whether
   * a run used them).
   */
  used_by_run: z.boolean().optional(),
});
export type StoredQuoteDetail = z.infer<typeof StoredQuoteDetail>;

export interface IssueQuoteOptions {
  /** ms: expires_at = created_at + ttlMs. */
  ttlMs: number;
  /** Clock (tests pin it); default: now. */
  now?: Date;
}

/**
 * Stores a quote, or returns the one already stored under `quoteId` (idempotent: a caller that
 * retries after a timeout gets the same quote). The stored quote wins over a retried price: a quote
 * is a promise made once. Throws ConflictError (409) when the id belongs to another client, and
 * ValidationError (422) when the same client used it for another capability or input.
 */
export async function issueQuote(
  prisma: PrismaClient,
  request: QuoteRequest,
  options: IssueQuoteOptions,
): Promise<QuoteRow> {
  // No read before the insert (issue 25: one statement less per quote): quote ids are fresh UUIDs,
  // so one already stored is rare (a retried call) and meets the unique key below, which answers it
  // from the stored row as a read first would have.
  const now = options.now ?? new Date();
  // A free quote needs no ledger read (a free capability's runs each issue one). A priced one reads a snapshot
  // without the lock: a quote reserves nothing, and the hold checks again under the lock.
  const clearance =
    request.priceMicros === 0n
      ? FREE_CLEARANCE
      : clearAgainstBalance(request.priceMicros, await getBalance(prisma, request.clientId, { now }));
  const detail: StoredQuoteDetail = {
    wallet_clearance: clearance,
    ...(request.priceDetail === undefined ? {} : { price_detail: request.priceDetail }),
    used_by_run: request.forRun === true,
  };
  try {
    return await prisma.quote.create({
      data: {
        id: request.quoteId,
        clientId: request.clientId,
        slug: request.slug,
        priceMicros: request.priceMicros,
        inputHash: request.inputHash,
        cleared: clearance.cleared,
        clearance: clearance.reason,
        detail,
        createdAt: now,
        expiresAt: new Date(now.getTime() + options.ttlMs),
      },
    });
  } catch (err) {
    // The id is stored already (a retry, or a concurrent call that came first): answer with that quote.
    if (!isUniqueViolation(err)) throw err;
    const winner = await prisma.quote.findUnique({ where: { id: request.quoteId } });
    if (!winner) throw err;
    return sameQuoteOrThrow(winner, request);
  }
}

/** The stored quote when `request` asks for the same thing again; otherwise why not. */
export function sameQuoteOrThrow(stored: QuoteRow, request: QuoteRequest): QuoteRow {
  if (stored.clientId !== request.clientId) {
    // Same words whether or not the caller could guess the other client: nothing about it leaks.
    throw new ConflictError(`quote_id ${request.quoteId} is already in use`);
  }
  if (stored.slug !== request.slug || stored.inputHash !== request.inputHash) {
    throw new ValidationError(`quote_id ${request.quoteId} was issued for a different input`);
  }
  return stored;
}
