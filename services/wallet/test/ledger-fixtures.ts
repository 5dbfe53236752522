import { randomUUID } from 'node:crypto';
import type { LedgerEntryKind, PrismaClient } from '@svc/db';
import type { QuoteRequest } from '../src/domain/quotes';

// Test fixture for the ledger integration suites: lines at pinned instants, written directly.

export interface FixtureLine {
  kind: LedgerEntryKind;
  /** micro-USD, signed as stored (docs/decisions.md W3). */
  amountMicros: bigint;
  at: string;
  slug?: string;
  runId?: string;
}

/** Writes `lines` for `clientId` (a new run id per line unless given) and returns the run ids in order. */
export async function writeLines(
  prisma: PrismaClient,
  clientId: string,
  lines: FixtureLine[],
): Promise<string[]> {
  const rows = lines.map((line) => ({
    clientId,
    kind: line.kind,
    amountMicros: line.amountMicros,
    runId: line.kind === 'credit' || line.kind === 'adjustment' ? null : (line.runId ?? randomUUID()),
    slug: line.slug ?? null,
    createdAt: new Date(line.at),
  }));
  await prisma.ledgerEntry.createMany({ data: rows });
  return rows.map((row) => row.runId ?? '');
}

/** A capture of `micros` (positive) for `slug` at `at`. */
export function capture(micros: bigint, slug: string, at: string): FixtureLine {
  return { kind: 'capture', amountMicros: -micros, slug, at };
}

/** A free crt quote request of a new client, with `parts` on top (quote suites). */
export function quoteRequest(inputHash: string, parts: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    quoteId: randomUUID(),
    clientId: randomUUID(),
    slug: 'crt',
    priceMicros: 0n,
    inputHash,
    ...parts,
  };
}
