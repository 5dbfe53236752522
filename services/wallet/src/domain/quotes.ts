import type { WalletClearance } from '@svc/contracts';
import { isUniqueViolation, type PrismaClient, type Quote as QuoteRow } from '@svc/db';
import { ConflictError, ValidationError } from '@svc/errors';
import { type BalanceSnapshot, getBalance, shownUsd } from './balance';

/** ms: default lifetime of a quote (QUOTE_TTL_MS): long enough to confirm a price, short enough not to promise it for days. */
export const DEFAULT_QUOTE_TTL_MS = 15 * 60_000;

/** The clearance of every zero-price quote (crt is free, spec §1.7): no wallet lookup at all. */
export const FREE_CLEARANCE_REASON = 'free capability: no funds needed';
const FREE_CLEARANCE: WalletClearance = { cleared: true, reason: FREE_CLEARANCE_REASON };

/** What the caller asks the wallet to price and clear. Amounts in micro-USD. */
export interface QuoteRequest {
  /** Chosen by the caller (the orchestrator uses the run id); the wallet keeps one quote per id. */
  quoteId: string;
  clientId: string;
  slug: string;
  priceMicros: bigint;
  /** SHA-256 (hex) of the canonical input priced: a run must send the same input (spec §4 rule 1). */
  inputHash: string;
}

export interface IssueQuoteOptions {
  /** ms: expires_at = created_at + ttlMs. */
  ttlMs: number;
  /** Clock (tests pin it); default: now. */
  now?: Date;
}

/**
 * Clears `priceMicros` against what the client may still spend (docs/decisions.md W1:
 * remaining = min(balance − held, cap − spent − held)) and says why in words a client can act on.
 * Pure: the snapshot comes from getBalance.
 */
export function clearAgainstBalance(priceMicros: bigint, snapshot: BalanceSnapshot): WalletClearance {
  if (priceMicros === 0n) return FREE_CLEARANCE;
  const price = shownUsd(priceMicros);
  if (snapshot.remainingMicros >= priceMicros) {
    return {
      cleared: true,
      reason: `remaining ${shownUsd(snapshot.remainingMicros)} USD covers the price ${price} USD`,
    };
  }
  const byBalance = snapshot.balanceMicros - snapshot.heldMicros;
  const cap = snapshot.spendCapMicros;
  if (cap !== null) {
    const leftOfCap = cap - snapshot.spentMicros - snapshot.heldMicros;
    if (leftOfCap < byBalance) {
      return {
        cleared: false,
        reason: `spend cap: ${shownUsd(leftOfCap)} USD left of the ${shownUsd(cap)} USD monthly cap is below the price ${price} USD`,
      };
    }
  }
  const held = snapshot.heldMicros > 0n ? ` (${shownUsd(snapshot.heldMicros)} USD held)` : '';
  return {
    cleared: false,
    reason: `balance ${shownUsd(byBalance)} USD${held} is below the price ${price} USD`,
  };
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
  const existing = await prisma.quote.findUnique({ where: { id: request.quoteId } });
  if (existing) return sameQuoteOrThrow(existing, request);

  const now = options.now ?? new Date();
  // A free quote needs no ledger read (crt: every run issues one).
  const clearance =
    request.priceMicros === 0n
      ? FREE_CLEARANCE
      : clearAgainstBalance(request.priceMicros, await getBalance(prisma, request.clientId, { now }));
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
        createdAt: now,
        expiresAt: new Date(now.getTime() + options.ttlMs),
      },
    });
  } catch (err) {
    // A concurrent call stored the same id first: answer as if it had been there all along.
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
