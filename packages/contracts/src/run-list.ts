import { z } from 'zod';
import { DateTime, Slug, Uuid } from './common';
import { RUN_STATES, RunState } from './execution';
import { RunRecord } from './run';

export const RUN_LIST_DEFAULT_LIMIT = 25;
export const RUN_LIST_MAX_LIMIT = 100;

/**
 * Opaque page token of GET /api/capability-runs: the `next_cursor` of the previous page, sent back
 * as it is. Its content is the orchestrator's (a keyset position); clients never build one.
 */
export const RunListCursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be a next_cursor of a previous page')
  .describe('Opaque: the `next_cursor` of the previous page.');

/**
 * Query of GET /api/capability-runs (ours, issue 18): the key's client's runs, newest first
 * (created_at, then run id, both descending), filtered by state, capability and creation time.
 * `created_from` is inclusive, `created_to` exclusive; a range that ends before it starts is 422.
 */
export const ListRunsQuery = z
  .object({
    state: RunState.optional().describe('Only runs in this state.'),
    capability: Slug.optional().describe('Only runs of this capability (slug).'),
    created_from: DateTime.optional().describe('Only runs recorded at or after this instant.'),
    created_to: DateTime.optional().describe('Only runs recorded before this instant.'),
    cursor: RunListCursor.optional(),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(RUN_LIST_MAX_LIMIT)
      .default(RUN_LIST_DEFAULT_LIMIT)
      .describe('Runs per page (1 to 100, default 25).'),
  })
  .strict();
export type ListRunsQuery = z.infer<typeof ListRunsQuery>;
export type ListRunsQueryInput = z.input<typeof ListRunsQuery>;

/** One run in a list: the RunRecord without its input-dependent parts (result, error, status text). */
export const RunSummary = RunRecord.pick({
  run_id: true,
  status: true,
  slug: true,
  client_type: true,
  created_at: true,
  updated_at: true,
  started_at: true,
  finished_at: true,
  attempts: true,
  price_usd: true,
  cancel_requested_at: true,
}).strict();
export type RunSummary = z.infer<typeof RunSummary>;

/** 200 body of GET /api/capability-runs (and `orchestrator.listRuns`). */
export const ListRunsResponse = z
  .object({
    ok: z.literal(true),
    runs: z.array(RunSummary),
    next_cursor: RunListCursor.nullable().describe(
      'Pass as `cursor` for the next page (same filters); null on the last page.',
    ),
  })
  .strict()
  .describe("A page of the client's runs, newest first.");
export type ListRunsResponse = z.infer<typeof ListRunsResponse>;

/** `orchestrator.runCounts`: the client's runs per state (every state present, 0 when none). */
export const RunCountsRequest = z.object({
  client_id: Uuid,
  /** Only runs recorded at or after this instant (optional: all runs). */
  created_from: DateTime.optional(),
});
export const RunCountsResponse = z
  .object({
    counts: z.object(
      Object.fromEntries(RUN_STATES.map((state) => [state, z.number().int().min(0)])) as Record<
        RunState,
        z.ZodNumber
      >,
    ),
    total: z.number().int().min(0),
  })
  .strict();
export type RunCountsResponse = z.infer<typeof RunCountsResponse>;

/**
 * What happened to a run, from its row's timestamps (each column keeps its latest time): recorded
 * (queued), dispatched (the latest hand-over to its queue), started (the latest claim: running),
 * cancel_requested, finished (its final state) and settled (the wallet confirmed the capture or
 * release of a paid run).
 */
export const RUN_TIMELINE_EVENTS = [
  'recorded',
  'dispatched',
  'started',
  'cancel_requested',
  'finished',
  'settled',
] as const;
export const RunTimelineEventKind = z.enum(RUN_TIMELINE_EVENTS);
export type RunTimelineEventKind = z.infer<typeof RunTimelineEventKind>;

export const RunTimelineEvent = z
  .object({
    event: RunTimelineEventKind,
    at: DateTime,
    /** The state the run entered with this event (recorded: queued, started: running, finished: final), else null. */
    state: RunState.nullable(),
    /** The event in words, e.g. "Started (attempt 2)". */
    description: z.string(),
  })
  .strict();
export type RunTimelineEvent = z.infer<typeof RunTimelineEvent>;

/** `orchestrator.runTimeline`: the owner's run's history, oldest first (404 as getRun). */
export const RunTimelineRequest = z.object({ client_id: Uuid, run_id: Uuid });
export const RunTimelineResponse = z
  .object({
    run_id: Uuid,
    status: RunState,
    attempts: z.number().int().min(0),
    /** Hand-overs to the queue (a retry or a recovery is one more). */
    dispatches: z.number().int().min(0),
    /** The input as the run recorded it (parsed, defaults applied): the owner's own data, for the dashboard's run page. */
    input: z.record(z.string(), z.unknown()),
    events: z.array(RunTimelineEvent),
  })
  .strict();
export type RunTimelineResponse = z.infer<typeof RunTimelineResponse>;
