import { type RpcRequestInput, type RpcResponse, RunState, TERMINAL_RUN_STATES } from '@svc/contracts';
import { Prisma, type PrismaClient } from '@svc/db';
import { z } from 'zod';
import { statusIn } from './run-rows';
import { type EnqueueSettle, ORPHAN_HOLD_REASON, queueSettlement } from './settlement';

/** Runs (or holds) looked at per sweep: a backlog drains over several sweeps instead of one long one. */
const SETTLE_BATCH = 100;

const UnsettledRow = z.object({
  id: z.string(),
  client_id: z.string(),
  status: RunState,
  price_micros: z.bigint(),
  error: z.unknown(),
});

const IdRow = z.object({ id: z.string() });

/**
 * Queues the settlement of paid final runs whose settlement was never queued (Redis failed between
 * the final UPDATE and the enqueue, or the run was failed by a sweep). Returns the run ids queued;
 * stops at the first enqueue failure (Redis down: the next sweep retries).
 */
export async function settleUnsettledRuns(
  prisma: PrismaClient,
  enqueueSettle: EnqueueSettle,
): Promise<string[]> {
  const raw = await prisma.$queryRaw<unknown[]>`
    SELECT id::text AS id, client_id::text AS client_id, status::text AS status, price_micros, error
    FROM orchestrator.runs
    WHERE settle_queued_at IS NULL AND price_micros > 0 AND ${statusIn(TERMINAL_RUN_STATES)}
    ORDER BY updated_at
    LIMIT ${SETTLE_BATCH}`;
  const queued: string[] = [];
  for (const row of raw.map((r) => UnsettledRow.parse(r))) {
    const facts = {
      id: row.id,
      clientId: row.client_id,
      status: row.status,
      priceMicros: row.price_micros,
      settleQueuedAt: null,
      error: row.error,
    };
    if (await queueSettlement(prisma, enqueueSettle, facts)) queued.push(row.id);
  }
  return queued;
}

/**
 * An open hold as the wallet lists it (`wallet.openHolds`, bus RPC catalog); `created_at` (RFC 3339)
 * with `run_id` is the position of the hold in the wallet's paging order.
 */
export type OpenHold = RpcResponse<'wallet', 'openHolds'>['holds'][number];

/** Where the previous page of open holds ended (exclusive): the request's `after`. */
export type OpenHoldCursor = NonNullable<RpcRequestInput<'wallet', 'openHolds'>['after']>;

/**
 * The wallet's open holds created before `olderThan` and after `after`, oldest first (at most
 * `limit`); throws when the wallet is down.
 */
export type ListOpenHolds = (
  olderThan: Date,
  limit: number,
  after: OpenHoldCursor | undefined,
) => Promise<OpenHold[]>;

/**
 * Pages through the wallet's open holds, one page per sweep: a page shorter than the limit ends a
 * round and the next sweep starts again from the oldest. Each sweep therefore reads at most
 * SETTLE_BATCH holds however many runs are legitimately long (a run queued for hours waiting for its
 * runtime keeps its hold open) and every hold is looked at once per round. One scanner per process;
 * replicas each walk on their own, which only repeats idempotent work.
 */
export class OrphanHoldScanner {
  private cursor: OpenHoldCursor | undefined;

  constructor(private readonly listOpenHolds: ListOpenHolds) {}

  /** The next page; advances (or resets) the cursor. */
  async nextPage(olderThan: Date, limit: number): Promise<OpenHold[]> {
    const holds = await this.listOpenHolds(olderThan, limit, this.cursor);
    const last = holds.at(-1);
    this.cursor =
      holds.length < limit || last === undefined
        ? undefined
        : { created_at: last.created_at, run_id: last.run_id };
    return holds;
  }
}

/**
 * Releases holds older than `olderThan` whose run does not exist: the wallet committed the hold,
 * then the orchestrator's run transaction rolled back (a crash, a timeout, a lost race). A hold
 * whose run exists is left alone: it is settled when the run ends (or by settleUnsettledRuns).
 * Looks at one page of `scanner` per call. Returns the run ids whose release was queued.
 */
export async function releaseOrphanHolds(
  prisma: PrismaClient,
  scanner: OrphanHoldScanner,
  enqueueSettle: EnqueueSettle,
  olderThan: Date,
): Promise<string[]> {
  const holds = await scanner.nextPage(olderThan, SETTLE_BATCH);
  if (holds.length === 0) return [];
  const ids = holds.map((hold) => hold.run_id);
  const existing = await prisma.$queryRaw<unknown[]>`
    SELECT id::text AS id FROM orchestrator.runs
    WHERE id IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))})`;
  const known = new Set(existing.map((row) => IdRow.parse(row).id));
  const released: string[] = [];
  for (const hold of holds) {
    if (known.has(hold.run_id)) continue;
    await enqueueSettle({
      run_id: hold.run_id,
      client_id: hold.client_id,
      outcome: 'release',
      reason: ORPHAN_HOLD_REASON,
    });
    released.push(hold.run_id);
  }
  return released;
}
