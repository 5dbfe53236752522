import {
  isTerminalRunState,
  type ListRunsQuery,
  type ListRunsResponse,
  RUN_STATES,
  type RunCountsResponse,
  type RunState,
  type RunTimelineEvent,
  type RunTimelineResponse,
  usdFromMicros,
} from '@svc/contracts';
import type { Prisma, PrismaClient, Run } from '@svc/db';
import { ValidationError } from '@svc/errors';
import { findOwnRun } from './get-run';
import { RUN_SUMMARY_COLUMNS, toRunSummary } from './run-record';

// The run lists of issue 18 (REST GET /api/capability-runs, the dashboard): the owner's runs only,
// newest first, keyset-paged on (created_at DESC, public_id DESC) over the (client_id, created_at) index (public ids
// are unique per client, so the pair orders one client's runs totally; decisions C16),
// so a page costs the same however deep it is and a run recorded meanwhile never shifts a page.

const CURSOR_MESSAGE = 'cursor: must be a next_cursor of a previous page';
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A keyset position: the last run of a page (created_at has millisecond precision, like a Date). */
export interface RunListPosition {
  createdAt: Date;
  /** The run's public id (what the owner sees). */
  publicId: string;
}

/** Pure: the opaque cursor of a position, base64url of `<epoch ms>.<run id>`. */
export function encodeRunCursor(position: RunListPosition): string {
  return Buffer.from(`${position.createdAt.getTime()}.${position.publicId}`, 'utf8').toString('base64url');
}

/** Pure: the position a cursor names; 422 for anything encodeRunCursor did not make. */
export function decodeRunCursor(cursor: string): RunListPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{1,15})\.(.+)$/.exec(text);
  const publicId = match?.[2];
  if (match === null || publicId === undefined || !UUID_PATTERN.test(publicId)) {
    throw new ValidationError(CURSOR_MESSAGE);
  }
  const createdAt = new Date(Number(match[1]));
  if (Number.isNaN(createdAt.getTime()) || encodeRunCursor({ createdAt, publicId }) !== cursor) {
    throw new ValidationError(CURSOR_MESSAGE);
  }
  return { createdAt, publicId };
}

/** Pure: the created range as Dates; 422 when it ends at or before its start. */
export function createdRange(query: Pick<ListRunsQuery, 'created_from' | 'created_to'>): {
  from?: Date;
  to?: Date;
} {
  const from = query.created_from === undefined ? undefined : new Date(query.created_from);
  const to = query.created_to === undefined ? undefined : new Date(query.created_to);
  if (from !== undefined && to !== undefined && from.getTime() >= to.getTime()) {
    throw new ValidationError(
      `created_from (${from.toISOString()}) must be before created_to (${to.toISOString()}): the range is [created_from, created_to)`,
    );
  }
  return { ...(from && { from }), ...(to && { to }) };
}

/**
 * `orchestrator.listRuns`: a page of `clientId`'s runs matching the filters, newest first. One row
 * more than the page is read to know whether another page exists; `next_cursor` is the position of
 * the page's last run (null on the last page). A cursor only says where to continue: sent with
 * other filters it continues that list at the same place.
 */
export async function listRuns(
  prisma: PrismaClient,
  clientId: string,
  query: ListRunsQuery,
): Promise<ListRunsResponse> {
  const range = createdRange(query);
  const after = query.cursor === undefined ? undefined : decodeRunCursor(query.cursor);
  const where: Prisma.RunWhereInput = {
    clientId,
    ...(query.state !== undefined && { status: query.state }),
    ...(query.capability !== undefined && { slug: query.capability }),
    AND: [
      range.from ? { createdAt: { gte: range.from } } : {},
      range.to ? { createdAt: { lt: range.to } } : {},
      after
        ? {
            createdAt: { lte: after.createdAt },
            OR: [{ createdAt: { lt: after.createdAt } }, { publicId: { lt: after.publicId } }],
          }
        : {},
    ],
  };
  const rows = await prisma.run.findMany({
    where,
    orderBy: [{ createdAt: 'desc' }, { publicId: 'desc' }],
    take: query.limit + 1,
    select: RUN_SUMMARY_COLUMNS,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    ok: true,
    runs: page.map(toRunSummary),
    next_cursor: rows.length > query.limit && last ? encodeRunCursor(last) : null,
  };
}

/** `orchestrator.runCounts`: the client's runs per state (every state, 0 when none). */
export async function runCounts(
  prisma: PrismaClient,
  clientId: string,
  createdFrom?: string,
): Promise<RunCountsResponse> {
  const groups = await prisma.run.groupBy({
    by: ['status'],
    where: { clientId, ...(createdFrom !== undefined && { createdAt: { gte: new Date(createdFrom) } }) },
    _count: { _all: true },
  });
  const counts = Object.fromEntries(RUN_STATES.map((state) => [state, 0])) as Record<RunState, number>;
  for (const group of groups) counts[group.status] = group._count._all;
  return { counts, total: groups.reduce((sum, group) => sum + group._count._all, 0) };
}

type TimelineRow = Pick<
  Run,
  | 'publicId'
  | 'status'
  | 'attempts'
  | 'dispatches'
  | 'priceMicros'
  | 'createdAt'
  | 'dispatchedAt'
  | 'startedAt'
  | 'cancelRequestedAt'
  | 'finishedAt'
  | 'settledAt'
  | 'input'
>;

/**
 * Pure: the run's history from its row. Each column keeps only its latest time (a second attempt
 * moves started_at), so this is what the row can tell, not a log. Oldest first; events at the same
 * instant keep the order recorded, dispatched, started, cancel requested, finished, settled.
 */
export function runTimelineOf(row: TimelineRow): RunTimelineResponse {
  const events: RunTimelineEvent[] = [
    {
      event: 'recorded',
      at: row.createdAt.toISOString(),
      state: 'queued',
      description: 'Recorded and queued.',
    },
  ];
  if (row.dispatchedAt) {
    events.push({
      event: 'dispatched',
      at: row.dispatchedAt.toISOString(),
      state: null,
      description:
        row.dispatches > 1
          ? `Handed to a worker queue (hand-over ${row.dispatches}).`
          : 'Handed to a worker queue.',
    });
  }
  if (row.startedAt) {
    events.push({
      event: 'started',
      at: row.startedAt.toISOString(),
      state: 'running',
      description: row.attempts > 0 ? `Started (attempt ${row.attempts}).` : 'Started.',
    });
  }
  if (row.cancelRequestedAt) {
    events.push({
      event: 'cancel_requested',
      at: row.cancelRequestedAt.toISOString(),
      state: null,
      description: 'Cancellation requested.',
    });
  }
  if (row.finishedAt && isTerminalRunState(row.status)) {
    events.push({
      event: 'finished',
      at: row.finishedAt.toISOString(),
      state: row.status,
      description: `Finished: ${row.status}.`,
    });
  }
  if (row.settledAt && row.priceMicros > 0n) {
    events.push({
      event: 'settled',
      at: row.settledAt.toISOString(),
      state: null,
      description:
        row.status === 'completed'
          ? `Settled: ${usdFromMicros(row.priceMicros)} USD charged.`
          : 'Settled: the hold was released, nothing charged.',
    });
  }
  // Array.prototype.sort is stable: equal instants keep the order above.
  events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return {
    run_id: row.publicId,
    status: row.status,
    attempts: row.attempts,
    dispatches: row.dispatches,
    input: isRecord(row.input) ? row.input : {},
    events,
  };
}

/** A stored input is a JSON object (the capability schemas are objects); anything else reads as empty. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `orchestrator.runTimeline`: the owner's run's history (404 for anyone else, as getRun). */
export async function runTimeline(
  prisma: PrismaClient,
  clientId: string,
  runId: string,
): Promise<RunTimelineResponse> {
  return runTimelineOf(await findOwnRun(prisma, clientId, runId));
}
