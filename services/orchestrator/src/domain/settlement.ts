import { isTerminalRunState, type PlatformJobPayloadInput, RunError, type RunState } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';

/** Payload of a `wallet.settle` job (bus job catalog): capture or release one run's hold. */
export type SettleJob = PlatformJobPayloadInput<'wallet.settle'>;

/** Queues the settlement (job id `settle-<run_id>`, deduplicated); throws when Redis is down. */
export type EnqueueSettle = (job: SettleJob) => Promise<void>;

/** BullMQ job id of a run's settlement: one per run however often it is queued (no `:`). */
export function settleJobId(runId: string): string {
  return `settle-${runId}`;
}

/** Ledger note of a hold whose run was never recorded (the run transaction rolled back). */
export const ORPHAN_HOLD_REASON = 'hold without a run';

/** What deciding a run's settlement needs. */
export interface SettlementFacts {
  id: string;
  clientId: string;
  status: RunState;
  /** micro-USD: the quoted price, held when the run was accepted. */
  priceMicros: bigint;
  /** When the settlement was queued; null = not yet. */
  settleQueuedAt: Date | null;
  /** Stored error JSON (failed runs): its code goes into the ledger note. */
  error: unknown;
}

/**
 * The settlement a run still needs (docs/decisions.md L-D), or undefined: only a paid run in a final
 * state whose settlement was not queued yet. Completed → capture; failed or cancelled → release.
 */
export function settlementFor(run: SettlementFacts): SettleJob | undefined {
  if (run.priceMicros <= 0n || run.settleQueuedAt !== null || !isTerminalRunState(run.status))
    return undefined;
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

/**
 * Queues what settlementFor says, then records `settle_queued_at`. Returns true when a job was
 * queued. The enqueue comes first: a crash in between leaves settle_queued_at null and the
 * dispatcher queues it again, which the job id dedupes and the wallet applies once anyway.
 */
export async function queueSettlement(
  prisma: PrismaClient,
  enqueueSettle: EnqueueSettle,
  run: SettlementFacts,
): Promise<boolean> {
  const job = settlementFor(run);
  if (job === undefined) return false;
  await enqueueSettle(job);
  await prisma.$executeRaw`
    UPDATE orchestrator.runs SET settle_queued_at = now()
    WHERE id = ${run.id}::uuid AND settle_queued_at IS NULL`;
  return true;
}
