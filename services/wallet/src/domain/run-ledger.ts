import type { LedgerEntry, PrismaClient } from '@svc/db';
import { absMicros } from './balance';

/** What the ledger says about one run (a receipt, spec §4.11). Amounts in micro-USD. */
export interface RunLedgerSummary {
  /** The run's lines of this client, oldest first. */
  lines: LedgerEntry[];
  /** The open hold: |hold| while neither captured nor released, else 0. */
  heldMicros: bigint;
  /** What the run cost: |capture| (0 when released or not settled yet). */
  chargedMicros: bigint;
  /** True once the hold was captured or released, or when there is no hold (a free or unknown run). */
  settled: boolean;
}

/** Pure: the totals of one run's lines. */
export function summarizeRunLines(lines: readonly Pick<LedgerEntry, 'kind' | 'amountMicros'>[]): {
  heldMicros: bigint;
  chargedMicros: bigint;
  settled: boolean;
} {
  const hold = lines.find((line) => line.kind === 'hold');
  const capture = lines.find((line) => line.kind === 'capture');
  const closed = capture !== undefined || lines.some((line) => line.kind === 'release');
  return {
    heldMicros: hold !== undefined && !closed ? absMicros(hold.amountMicros) : 0n,
    chargedMicros: capture === undefined ? 0n : absMicros(capture.amountMicros),
    settled: hold === undefined || closed,
  };
}

/**
 * The lines of `runId` that belong to `clientId` (another client's run reads as an empty, settled
 * ledger: the orchestrator has already answered 404 for it), oldest first.
 */
export async function runLedger(
  prisma: PrismaClient,
  clientId: string,
  runId: string,
): Promise<RunLedgerSummary> {
  const lines = await prisma.ledgerEntry.findMany({
    where: { clientId, runId },
    // Equal instants (a plan run settles at once) keep the money order: enum order hold, capture, release.
    orderBy: [{ createdAt: 'asc' }, { kind: 'asc' }],
  });
  return { lines, ...summarizeRunLines(lines) };
}
