import { z } from 'zod';
import { IdempotencyKey } from '../common';
import { CrtRunRequest, CrtRunResponse } from '../crt';
import { RunReceiptResponse } from '../ledger';
import { CancelRunResponse, RunIdParams, RunStatusResponse } from '../run';
import { ListRunsQuery, ListRunsResponse } from '../run-list';
import { defineOperation } from './operation-types';
import { PreferenceAppliedHeader, PreferWaitHeader } from './prefer-wait';

/** Optional `Idempotency-Key` header of the crt run (spec §4 rule 2; lowercase: HTTP header names). */
export const CrtRunHeaders = z.object({
  'idempotency-key': IdempotencyKey.optional().describe(
    'Unique per logical run attempt (8-190 characters of A-Z a-z 0-9 . _ : -). The same key with the same ' +
      'request replays the original run; with a different request it is rejected with 422.',
  ),
});

/** `Location` of a 202 run answer: where the run is polled (GET /api/capability-runs/{run_id}). */
export const RunLocationHeader = z.object({
  Location: z.string().describe('Where to poll the run: /api/capability-runs/{run_id}.'),
});

/** Spec §4.5, §4.8, §4.10 and §4.11: the crt run, run status, cancel and receipt; and the run list (issue 18). */
export const runOperations = [
  defineOperation({
    method: 'post',
    path: '/api/capabilities/crt/run',
    operationId: 'runCrt',
    rateLimit: 'runs',
    summary: 'Run crt: certificate-transparency hostnames for one apex domain',
    description:
      'Runs the free `crt` capability and answers when the run has completed. `input.apex` must be a ' +
      'registrable domain (eTLD+1, Public Suffix List ICANN and PRIVATE sections). A valid UUID as ' +
      '`quote_id` becomes the run ID (spec §2.3): run IDs are per client, so a UUID another client used is ' +
      'a new run here. A `quote_id` the caller got from POST /api/capabilities/crt/quote must be for this ' +
      'input (422) and not expired (409); a UUID the caller already named a run with answers 409. With ' +
      '`Idempotency-Key`, a repeated ' +
      'identical request answers `CrtReplayRunResponse` for the ' +
      'original run (header `Idempotent-Replayed: true`) and does no new work. When the run outlives the ' +
      'server-side wait it answers 202 with the run status and a `Location` to poll. When every certificate ' +
      'provider fails the run is `failed` and the answer is 502.',
    tags: ['runs'],
    auth: { kind: 'key', scopes: ['capabilities:run'] },
    params: { header: CrtRunHeaders },
    body: { schema: CrtRunRequest },
    success: {
      status: 200,
      description: 'The completed run, or a replay of the original run.',
      schema: CrtRunResponse,
      headers: z.object({
        'Idempotent-Replayed': z
          .literal('true')
          .optional()
          .describe('Present on a replay (CrtReplayRunResponse): no new work was done.'),
      }),
    },
    otherResponses: {
      202: {
        description:
          'The run is still queued or running; poll the `Location` (GET /api/capability-runs/{run_id}).',
        schema: RunStatusResponse,
        headers: RunLocationHeader,
      },
    },
    // 404 stays documented (removing a status is a breaking change, §9.4), though since decisions C16
    // no quote_id answers it: a UUID that is not one of the caller's quotes names a new run.
    errors: [400, 401, 403, 404, 409, 413, 415, 422, 500, 502, 503],
  }),
  defineOperation({
    method: 'get',
    path: '/api/capability-runs',
    operationId: 'listRuns',
    summary: "List the client's runs",
    description:
      'The runs the calling client started, newest first (by creation time, then run ID), as summaries ' +
      '(GET /api/capability-runs/{run_id} gives a whole run with its result). Filter by `state`, `capability` ' +
      'and creation time (`created_from` inclusive, `created_to` exclusive). A page holds at most `limit` ' +
      'runs; pass its `next_cursor` as `cursor` with the same filters for the next one (null on the last ' +
      'page). Pages are keyset-based: a run recorded while paging never shifts a page, and every run is ' +
      'seen once. Runs of other clients are never listed. A cursor that is not a `next_cursor`, or a range ' +
      'whose end is not after its start, answers 422.',
    tags: ['runs'],
    auth: { kind: 'key', scopes: ['capabilities:run'] },
    params: { query: ListRunsQuery },
    success: { status: 200, description: 'A page of runs.', schema: ListRunsResponse },
    errors: [401, 403, 422, 500, 503],
  }),
  defineOperation({
    method: 'get',
    path: '/api/capability-runs/{run_id}',
    operationId: 'getRun',
    summary: 'Run status',
    description:
      'The status record of a run the calling client started, with its result once completed. A run of ' +
      'another client answers the same 404 as a run that does not exist. With `Prefer: wait=N` the answer ' +
      'waits up to N seconds for a run still going to end, instead of the client polling.',
    tags: ['runs'],
    auth: { kind: 'key', scopes: ['capabilities:run'] },
    params: { path: RunIdParams, header: PreferWaitHeader },
    success: {
      status: 200,
      description: 'The run status record.',
      schema: RunStatusResponse,
      headers: PreferenceAppliedHeader,
    },
    errors: [401, 403, 404, 422, 500, 503],
  }),
  defineOperation({
    method: 'post',
    path: '/api/capability-runs/{run_id}/cancel',
    operationId: 'cancelRun',
    rateLimit: 'runs',
    summary: 'Cancel a run',
    description:
      'A queued or retrying run is cancelled at once (200, status `cancelled`; a held price is released). A ' +
      'running run is asked to stop (202, status still `running`, `cancel_requested_at` set): cancellation ' +
      'is cooperative, so it ends `cancelled`, or `completed` (and charged) if it finished first. No body. ' +
      'A run of another client answers the same 404 as a run that does not exist.',
    tags: ['runs'],
    auth: { kind: 'key', scopes: ['capabilities:run'] },
    params: { path: RunIdParams },
    success: { status: 200, description: 'The run, now cancelled.', schema: CancelRunResponse },
    otherResponses: {
      202: {
        description: 'The run is running: cancellation requested; poll the `Location` until it ends.',
        schema: CancelRunResponse,
        headers: RunLocationHeader,
      },
    },
    errors: [401, 403, 404, 409, 422, 500, 503],
    errorNotes: {
      409: 'The run already finished (completed, failed or cancelled); only queued, retrying or running runs can be cancelled.',
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/capability-runs/{run_id}/receipt',
    operationId: 'getRunReceipt',
    summary: 'Run receipt: the run, its quote and its ledger lines',
    description:
      'The run record, the quote it ran on and the wallet lines written for it (hold, then capture or ' +
      'release), with what is still held, what was charged and whether the run is settled. A run of ' +
      'another client answers the same 404 as a run that does not exist.',
    tags: ['runs'],
    auth: { kind: 'key', scopes: ['billing:read'] },
    params: { path: RunIdParams },
    success: { status: 200, description: 'The receipt.', schema: RunReceiptResponse },
    errors: [401, 403, 404, 422, 500, 503],
  }),
] as const;
