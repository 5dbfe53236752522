import { randomUUID } from 'node:crypto';
import {
  isTerminalRunState,
  ListRunsQuery,
  type ListRunsQueryInput,
  type ListRunsResponse,
  type Quote,
  RUN_STATES,
  type RunCountsResponse,
  type RunReceiptResponse,
  type RunRecord,
  type RunState,
  type RunTimelineEvent,
  type RunTimelineResponse,
} from '@svc/contracts';
import {
  type AppError,
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '@svc/errors';
import type {
  CancelledRun,
  QuoteCapability,
  RunOrchestrator,
  StartCrtRun,
  StartedRun,
  StartRun,
} from '../../src/domain/run-orchestrator';
import {
  FAKE_CAPABILITIES,
  type FakeCapability,
  fakeCrtResult,
  fakeQuote,
  fakeReceipt,
  runRecord,
  statusMessage,
} from './fake-records';

/**
 * An in-memory stand-in for the orchestrator's RPC with the behaviours the gateway must map:
 * idempotent replays scoped to the client, 422 for a key reused with another request, 409 for a
 * reused quote_id, 404 for runs and quotes of other clients, the capability checks of a quote or
 * run (404 unknown, 409 describe_only, paid runs need a key and a quote), plan_only runs finished
 * at creation, cancel by state, receipts, and 503 when "down". `failNext` makes the next call fail
 * with any error (e.g. the wallet's 402), to check it passes through. The real orchestrator is
 * exercised by the integration suites.
 */

/** How a new crt run ends: right after it is started (asynchronously), or never (`stay-queued`). */
export type FakeOutcome = 'complete' | 'fail-provider' | 'fail-internal' | 'bad-result' | 'stay-queued';

export const PROVIDER_FAILURE =
  'crt providers unavailable: crt.sh: HTTP 502 after 3 attempts; certspotter: timed out after 15000 ms';

interface StoredRun {
  readonly clientId: string;
  readonly requestKey: string;
  readonly crtInput?: StartCrtRun['input'];
  /** The input as recorded (runTimeline answers it). */
  readonly input: Record<string, unknown>;
  record: RunRecord;
  readonly quote: Quote;
}

export class FakeOrchestrator implements RunOrchestrator {
  /** Every startCrtRun request received, in order. */
  readonly starts: StartCrtRun[] = [];
  /** Every quote / startRun request, and every cancelRun / receipt call, in order. */
  readonly quotes: QuoteCapability[] = [];
  readonly runStarts: StartRun[] = [];
  readonly cancels: string[] = [];
  readonly receipts: string[] = [];
  getRunCalls = 0;
  /** Every listRuns call (client id and the query as received), in order. */
  readonly listRunsCalls: Array<{ clientId: string; query: ListRunsQueryInput }> = [];
  /** How crt runs started from now on end. */
  outcome: FakeOutcome = 'complete';
  /** When true, every call fails the way an RPC timeout does (503). */
  down = false;
  /** The next call (any method) throws this, once. */
  failNext: AppError | null = null;
  /** Told when a run reaches a terminal state (the harness delivers it as `run.finished`); null loses it. */
  onFinished: ((runId: string) => void) | null = null;
  private readonly runs = new Map<string, StoredRun>();
  private readonly byKey = new Map<string, string>();
  private readonly issued = new Map<string, { clientId: string; quote: Quote }>();

  async startCrtRun(request: StartCrtRun): Promise<StartedRun> {
    this.starts.push(request);
    this.enter();
    const requestKey = JSON.stringify([request.input, request.quote_id ?? null, request.client_type]);
    const replay = this.replayOf(request.client_id, request.idempotency_key, requestKey);
    if (replay) return replay;
    const runId = this.freshRunId(request.quote_id);
    const record = runRecord({
      run_id: runId,
      status: 'queued',
      slug: 'crt',
      client_type: request.client_type,
    });
    const quote = fakeQuote(runId, 'crt');
    this.store(request, {
      clientId: request.client_id,
      requestKey,
      crtInput: request.input,
      input: { ...request.input },
      record,
      quote,
    });
    const outcome = this.outcome;
    // Like the real platform: the answer says "queued", the run ends later.
    if (outcome !== 'stay-queued') setImmediate(() => this.finish(runId, outcome));
    return { replay: false, run: record, quote };
  }

  async getRun(clientId: string, runId: string): Promise<RunRecord> {
    this.getRunCalls += 1;
    this.enter();
    return this.owned(clientId, runId).record;
  }

  async quote(request: QuoteCapability): Promise<Quote> {
    this.quotes.push(request);
    this.enter();
    const capability = this.runnable(request.slug);
    if (request.slug === 'pii-redact' && typeof request.input.text !== 'string') {
      throw new ValidationError('input.text: required');
    }
    const quote = fakeQuote(randomUUID(), request.slug, capability.priceUsd);
    this.issued.set(quote.quote_id, { clientId: request.client_id, quote });
    return quote;
  }

  async startRun(request: StartRun): Promise<StartedRun> {
    this.runStarts.push(request);
    this.enter();
    const capability = this.runnable(request.slug);
    const requestKey = JSON.stringify([
      request.slug,
      request.input,
      request.quote_id ?? null,
      request.client_type,
    ]);
    const replay = this.replayOf(request.client_id, request.idempotency_key, requestKey);
    if (replay) return replay;
    const paid = capability.priceUsd !== '0';
    if (paid && request.idempotency_key === undefined) {
      throw new ValidationError(
        `Idempotency-Key header is required for paid capabilities (price ${capability.priceUsd} USD)`,
      );
    }
    if (paid && request.quote_id === undefined) {
      throw new ValidationError(
        `quote_id is required for paid capabilities: quote this input first (POST /api/capabilities/${request.slug}/quote)`,
      );
    }
    const issued = request.quote_id === undefined ? undefined : this.issued.get(request.quote_id);
    if (request.quote_id !== undefined && issued?.clientId !== request.client_id) {
      throw new NotFoundError(`unknown quote_id: ${request.quote_id}`);
    }
    const runId = this.freshRunId(request.quote_id);
    const status: RunState = capability.status === 'plan_only' ? 'completed' : 'queued';
    const record = runRecord({
      run_id: runId,
      status,
      slug: request.slug,
      client_type: request.client_type,
      price_usd: capability.priceUsd,
      runtime: capability.runtime,
      attempts: 0,
      waiting_for_runtime: capability.status === 'requires_worker' ? capability.runtime : null,
      ...(status === 'completed'
        ? {
            result: { server_processing: false },
            status_message: 'completed: plan ready; the server ran nothing',
          }
        : {}),
    });
    const quote = issued?.quote ?? fakeQuote(runId, request.slug);
    this.store(request, { clientId: request.client_id, requestKey, input: request.input, record, quote });
    return { replay: false, run: record, quote };
  }

  async cancelRun(clientId: string, runId: string): Promise<CancelledRun> {
    this.cancels.push(runId);
    this.enter();
    const run = this.owned(clientId, runId);
    const { status } = run.record;
    if (isTerminalRunState(status)) {
      throw new ConflictError(
        `run ${runId} is already ${status}; only queued, retrying or running runs can be cancelled`,
      );
    }
    const now = new Date().toISOString();
    if (status === 'running') {
      const requested = run.record.cancel_requested_at ?? now;
      run.record = {
        ...run.record,
        cancel_requested_at: requested,
        status_message: `${statusMessage('running')}; cancellation requested at ${requested}`,
      };
      return { outcome: 'cancel_requested', run: run.record };
    }
    this.setStatus(runId, 'cancelled', { cancel_requested_at: now });
    return { outcome: 'cancelled', run: run.record };
  }

  async receipt(clientId: string, runId: string): Promise<RunReceiptResponse> {
    this.receipts.push(runId);
    this.enter();
    const { record, quote } = this.owned(clientId, runId);
    return fakeReceipt(record, quote);
  }

  /**
   * The client's runs newest first (created_at, then run id, descending), filtered like the real
   * orchestrator; the cursor is the base64url of the page's last run id (422 when it names none).
   */
  async listRuns(clientId: string, input: ListRunsQueryInput): Promise<ListRunsResponse> {
    this.listRunsCalls.push({ clientId, query: input });
    this.enter();
    const query = ListRunsQuery.parse(input);
    const from = query.created_from === undefined ? -Infinity : Date.parse(query.created_from);
    const to = query.created_to === undefined ? Infinity : Date.parse(query.created_to);
    if (from >= to) throw new ValidationError('created_from must be before created_to');
    const order = (a: RunRecord, b: RunRecord) =>
      b.created_at.localeCompare(a.created_at) || b.run_id.localeCompare(a.run_id);
    const mine = [...this.runs.values()]
      .filter((run) => run.clientId === clientId)
      .map((run) => run.record)
      .filter(
        (record) =>
          (query.state === undefined || record.status === query.state) &&
          (query.capability === undefined || record.slug === query.capability) &&
          Date.parse(record.created_at) >= from &&
          Date.parse(record.created_at) < to,
      )
      .sort(order);
    let start = 0;
    if (query.cursor !== undefined) {
      const after = Buffer.from(query.cursor, 'base64url').toString('utf8');
      const index = mine.findIndex((record) => record.run_id === after);
      if (index < 0) throw new ValidationError('cursor: must be a next_cursor of a previous page');
      start = index + 1;
    }
    const page = mine.slice(start, start + query.limit);
    const last = page.at(-1);
    return {
      ok: true,
      runs: page.map((record) => ({
        run_id: record.run_id,
        status: record.status,
        slug: record.slug,
        client_type: record.client_type,
        created_at: record.created_at,
        updated_at: record.updated_at,
        started_at: record.started_at,
        finished_at: record.finished_at,
        attempts: record.attempts,
        price_usd: record.price_usd,
        cancel_requested_at: record.cancel_requested_at,
      })),
      next_cursor:
        last !== undefined && start + query.limit < mine.length
          ? Buffer.from(last.run_id, 'utf8').toString('base64url')
          : null,
    };
  }

  async runCounts(clientId: string, options: { createdFrom?: string } = {}): Promise<RunCountsResponse> {
    this.enter();
    const from = options.createdFrom === undefined ? -Infinity : Date.parse(options.createdFrom);
    const counts = Object.fromEntries(RUN_STATES.map((state) => [state, 0])) as Record<RunState, number>;
    let total = 0;
    for (const run of this.runs.values()) {
      if (run.clientId !== clientId || Date.parse(run.record.created_at) < from) continue;
      counts[run.record.status] += 1;
      total += 1;
    }
    return { counts, total };
  }

  /** The history the record's timestamps give (the real one also has dispatched and settled). */
  async runTimeline(clientId: string, runId: string): Promise<RunTimelineResponse> {
    this.enter();
    const { record, input } = this.owned(clientId, runId);
    const events: RunTimelineEvent[] = [
      { event: 'recorded', at: record.created_at, state: 'queued', description: 'Recorded and queued.' },
    ];
    if (record.started_at !== null) {
      events.push({ event: 'started', at: record.started_at, state: 'running', description: 'Started.' });
    }
    if (record.cancel_requested_at !== null) {
      events.push({
        event: 'cancel_requested',
        at: record.cancel_requested_at,
        state: null,
        description: 'Cancellation requested.',
      });
    }
    if (record.finished_at !== null && isTerminalRunState(record.status)) {
      events.push({
        event: 'finished',
        at: record.finished_at,
        state: record.status,
        description: `Finished: ${record.status}.`,
      });
    }
    return {
      run_id: record.run_id,
      status: record.status,
      attempts: record.attempts,
      dispatches: 1,
      input,
      events,
    };
  }

  /** Moves a run to `status` (as a worker report or a cancel would), then "publishes" run.finished. */
  setStatus(runId: string, status: RunState, fields: Partial<RunRecord> = {}): RunRecord {
    const run = this.runs.get(runId);
    if (run === undefined) throw new Error(`fake orchestrator: no run ${runId}`);
    const now = new Date().toISOString();
    run.record = {
      ...run.record,
      status,
      updated_at: now,
      started_at: status === 'queued' ? null : (run.record.started_at ?? now),
      finished_at: isTerminalRunState(status) ? now : null,
      attempts: status === 'queued' ? run.record.attempts : Math.max(1, run.record.attempts),
      waiting_for_runtime: null,
      status_message: statusMessage(status),
      ...fields,
    };
    if (isTerminalRunState(status)) this.onFinished?.(runId);
    return run.record;
  }

  /** Ends a crt run the way the worker's report would, then "publishes" run.finished. */
  finish(runId: string, outcome: Exclude<FakeOutcome, 'stay-queued'>): void {
    const input = this.runs.get(runId)?.crtInput;
    if (input === undefined) throw new Error(`fake orchestrator: no crt run ${runId}`);
    if (outcome === 'complete') this.setStatus(runId, 'completed', { result: fakeCrtResult(input) });
    else if (outcome === 'bad-result') {
      this.setStatus(runId, 'completed', { result: { status: 'completed', apex: input.apex } });
    } else {
      const error =
        outcome === 'fail-provider'
          ? { code: 'provider_unavailable', message: PROVIDER_FAILURE }
          : { code: 'internal', message: 'internal error' };
      this.setStatus(runId, 'failed', { error, status_message: `failed: ${error.message}` });
    }
  }

  /** A completed crt run owned by `clientId`, e.g. another client's, for 404 checks. */
  seed(clientId: string, input: StartCrtRun['input']): string {
    const runId = randomUUID();
    const record = runRecord({
      run_id: runId,
      status: 'completed',
      slug: 'crt',
      result: fakeCrtResult(input),
    });
    this.runs.set(runId, {
      clientId,
      requestKey: '',
      crtInput: input,
      input: { ...input },
      record,
      quote: fakeQuote(runId, 'crt'),
    });
    return runId;
  }

  /** Every call starts here: a planned failure, or the whole orchestrator "down". */
  private enter(): void {
    const planned = this.failNext;
    if (planned !== null) {
      this.failNext = null;
      throw planned;
    }
    if (this.down) throw new ServiceUnavailableError('orchestrator service did not answer within 1000 ms');
  }

  private runnable(slug: string): FakeCapability {
    const capability = FAKE_CAPABILITIES[slug];
    if (capability === undefined) throw new NotFoundError(`unknown capability: ${slug}`);
    if (capability.status === 'describe_only') {
      throw new ConflictError(
        `capability ${slug} cannot be quoted or run: its execution mode is describe_only (spec §2.1)`,
      );
    }
    return capability;
  }

  private owned(clientId: string, runId: string): StoredRun {
    const run = this.runs.get(runId);
    // Another client's run is indistinguishable from a missing one.
    if (run === undefined || run.clientId !== clientId) throw new NotFoundError(`unknown run: ${runId}`);
    return run;
  }

  private replayOf(clientId: string, key: string | undefined, requestKey: string): StartedRun | null {
    if (key === undefined) return null;
    const runId = this.byKey.get(`${clientId} ${key}`);
    const existing = runId === undefined ? undefined : this.runs.get(runId);
    if (existing === undefined) return null;
    if (existing.requestKey === requestKey)
      return { replay: true, run: existing.record, quote: existing.quote };
    throw new ValidationError(
      `Idempotency-Key "${key}" was already used with a different request (run ${existing.record.run_id}); send a new key for a new request`,
    );
  }

  private freshRunId(quoteId: string | undefined): string {
    const runId = quoteId ?? randomUUID();
    if (this.runs.has(runId)) {
      throw new ConflictError(
        `quote_id ${runId} has already been used for a run; quote again or omit quote_id`,
      );
    }
    return runId;
  }

  private store(request: { client_id: string; idempotency_key?: string | undefined }, run: StoredRun): void {
    this.runs.set(run.record.run_id, run);
    if (request.idempotency_key !== undefined) {
      this.byKey.set(`${request.client_id} ${request.idempotency_key}`, run.record.run_id);
    }
  }
}
