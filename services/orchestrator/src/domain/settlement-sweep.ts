import { type RpcRequestInput, type RpcResponse, RunState, TERMINAL_RUN_STATES } from '@svc/contracts';
import { Prisma, type PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { z } from 'zod';
import { statusIn } from './run-rows';
import { ORPHAN_HOLD_REASON, type SettleRun, settleFinalRun } from './settlement';

/** Runs (or holds) looked at per sweep: a backlog drains over several sweeps instead of one long one. */
const SETTLE_BATCH = 100;

/**
 * ms: a final run is re-driven only once it has been final this long, so the report (or cancel)
 * that finalised it settles it first and the sweep does not ask the wallet twice for every run.
 */
export const REDRIVE_AFTER_MS = 1_000;

const UnsettledRow = z.object({
  id: z.string(),
  client_id: z.string(),
  status: RunState,
  price_micros: z.bigint(),
  error: z.unknown(),
});

const IdRow = z.object({ id: z.string() });

export interface RedriveDeps {
  prisma: PrismaClient;
  /** The wallet's `settle` RPC. */
  settle: SettleRun;
  logger: Pick<Logger, 'warn'>;
  /** ms: re-drive runs final at least this long; default REDRIVE_AFTER_MS. */
  afterMs?: number;
}

/**
 * Settles paid final runs the wallet has not confirmed (settled_at NULL), oldest first, a batch per
 * call: the immediate settlement after the report failed (wallet down, a crash after the report
 * committed), or the run was failed by a sweep. Called by every dispatcher sweep until the wallet
 * answers; the wallet applies each settlement once (unique ledger line per run and kind). Stops at
 * the first failure (the wallet is down: the next sweep tries again). Returns the run ids settled.
 */
export async function redriveSettlements(deps: RedriveDeps): Promise<string[]> {
  const afterMs = deps.afterMs ?? REDRIVE_AFTER_MS;
  const raw = await deps.prisma.$queryRaw<unknown[]>`
    SELECT id::text AS id, client_id::text AS client_id, status::text AS status, price_micros, error
    FROM orchestrator.runs
    WHERE settled_at IS NULL AND price_micros > 0 AND NOT hold_pending AND ${statusIn(TERMINAL_RUN_STATES)}
      AND updated_at < now() - make_interval(secs => ${afterMs / 1_000}::float8)
    ORDER BY updated_at
    LIMIT ${SETTLE_BATCH}`;
  const settled: string[] = [];
  for (const row of raw.map((r) => UnsettledRow.parse(r))) {
    const facts = {
      id: row.id,
      clientId: row.client_id,
      status: row.status,
      priceMicros: row.price_micros,
      settledAt: null,
      error: row.error,
    };
    try {
      if (await settleFinalRun(deps, facts)) settled.push(row.id);
    } catch (err) {
      deps.logger.warn(
        { run_id: row.id, err, pending: raw.length - settled.length },
        'settlement not confirmed; retrying next sweep',
      );
      break;
    }
  }
  return settled;
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
 * whose run exists is left alone: it is settled when the run ends (or by redriveSettlements).
 * Looks at one page of `scanner` per call. Returns the run ids released (a safety net: with the run
 * recorded before its hold, issue 15, an orphan hold should not arise).
 */
export async function releaseOrphanHolds(
  prisma: PrismaClient,
  scanner: OrphanHoldScanner,
  settle: SettleRun,
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
    await settle({
      run_id: hold.run_id,
      client_id: hold.client_id,
      outcome: 'release',
      reason: ORPHAN_HOLD_REASON,
    });
    released.push(hold.run_id);
  }
  return released;
}
