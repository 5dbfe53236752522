import { isTerminalRunState, type RpcRequestInput, RunError, type RunState } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';

/** A `wallet.settle` request (bus RPC catalog): capture or release one run's hold. */
export type SettleRequest = RpcRequestInput<'wallet', 'settle'>;

/**
 * The wallet's `settle` (idempotent: one capture or release per run however often it is called);
 * throws when the wallet does not answer (503).
 */
export type SettleRun = (request: SettleRequest) => Promise<{ applied: boolean }>;

/** Ledger note of a hold whose run was never recorded (or whose pending row was undone). */
export const ORPHAN_HOLD_REASON = 'hold without a run';

/** What deciding a run's settlement needs (a Prisma `Run` row and a StoredRun both fit). */
export interface SettlementFacts {
  id: string;
  clientId: string;
  status: RunState;
  /** micro-USD: the quoted price, held when the run was accepted. */
  priceMicros: bigint;
  /** When the wallet confirmed the settlement; null = not yet. */
  settledAt: Date | null;
  /** Stored error JSON (failed runs): its code goes into the ledger note. */
  error: unknown;
}

/**
 * The settlement a run still needs (docs/decisions.md L-D), or undefined: only a paid run in a final
 * state whose settlement the wallet has not confirmed yet. Completed → capture; failed or cancelled
 * → release.
 */
export function settlementFor(run: SettlementFacts): SettleRequest | undefined {
  if (run.priceMicros <= 0n || run.settledAt !== null || !isTerminalRunState(run.status)) return undefined;
  const base = { run_id: run.id, client_id: run.clientId };
  switch (run.status) {
    case 'completed':
      return { ...base, outcome: 'capture', reason: 'run completed' };
    case 'failed': {
      const error = RunError.safeParse(run.error);
      return {
        ...base,
        outcome: 'release',
        reason: `run failed: ${error.success ? error.data.code : 'internal'}`,
      };
    }
    default:
      return { ...base, outcome: 'release', reason: `run ${run.status}` };
  }
}

export interface SettleDeps {
  prisma: PrismaClient;
  settle: SettleRun;
}

/**
 * Asks the wallet to settle what settlementFor says, then records `settled_at`. Returns true when
 * the run needed settling (and now is). Throws when the wallet or the database fails: the run keeps
 * settled_at NULL and the dispatcher's sweep asks again (redriveSettlements), which the wallet
 * applies once however often it is asked. A crash between the answer and the UPDATE only repeats
 * the (idempotent) call.
 */
export async function settleFinalRun(deps: SettleDeps, run: SettlementFacts): Promise<boolean> {
  const request = settlementFor(run);
  if (request === undefined) return false;
  await deps.settle(request);
  await deps.prisma.$executeRaw`
    UPDATE orchestrator.runs SET settled_at = now()
    WHERE id = ${run.id}::uuid AND settled_at IS NULL`;
  return true;
}
