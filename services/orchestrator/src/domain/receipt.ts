import type { RpcResponseInput, RunLedger } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { findOwnRun, runRecordOf, type WorkerAvailability } from './get-run';
import { storedQuote } from './run-record';

export type RunReceipt = RpcResponseInput<'orchestrator', 'receipt'>;

export interface ReceiptDeps {
  prisma: PrismaClient;
  workerUp: WorkerAvailability;
  /** The wallet's `runLedger`: the run's ledger lines with held/charged/settled (503 when down). */
  runLedger(request: { client_id: string; run_id: string }): Promise<RunLedger>;
}

/**
 * `orchestrator.receipt` (spec §4.11; docs/decisions.md L-D): the run (404 for anyone but its owner),
 * the quote stored with it and what the wallet's ledger says about it.
 */
export async function runReceipt(deps: ReceiptDeps, clientId: string, runId: string): Promise<RunReceipt> {
  const row = await findOwnRun(deps.prisma, clientId, runId);
  const [run, ledger] = await Promise.all([
    runRecordOf(row, deps.workerUp),
    // The ledger names the run by its internal id; the receipt shows the id its owner knows (C16).
    deps.runLedger({ client_id: clientId, run_id: row.id }),
  ]);
  const lines = ledger.lines.map((line) =>
    line.run_id === row.id ? { ...line, run_id: row.publicId } : line,
  );
  return { ok: true, run, quote: storedQuote(row), currency: 'USD', ledger: { ...ledger, lines } };
}
