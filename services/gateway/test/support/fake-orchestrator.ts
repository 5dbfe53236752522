import { randomUUID } from 'node:crypto';
import type { CrtResult, Quote, RunRecord } from '@svc/contracts';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '@svc/errors';
import type { RunOrchestrator, StartCrtRun, StartedRun } from '../../src/domain/run-orchestrator';

/**
 * An in-memory stand-in for the orchestrator's RPC (startCrtRun, getRun) with the behaviours the
 * gateway must map: idempotent replays scoped to the client, 422 for a key reused with another
 * request, 409 for a reused quote_id, 404 for runs of other clients, 503 when "down". The real one
 * is exercised by the integration suites.
 */

/** How a new run ends: right after it is started (asynchronously), or never (`stay-queued`). */
export type FakeOutcome = 'complete' | 'fail-provider' | 'fail-internal' | 'bad-result' | 'stay-queued';

export const PROVIDER_FAILURE =
  'crt providers unavailable: crt.sh: HTTP 502 after 3 attempts; certspotter: timed out after 15000 ms';

interface StoredRun {
  readonly clientId: string;
  readonly requestKey: string;
  readonly input: StartCrtRun['input'];
  record: RunRecord;
  readonly quote: Quote;
}

/** The zero-price quote the wallet issues for a crt run. */
export function freeQuote(quoteId: string, now: string): Quote {
  return {
    quote_id: quoteId,
    slug: 'crt',
    price_usd: '0',
    currency: 'USD',
    wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' },
    created_at: now,
    expires_at: new Date(Date.parse(now) + 15 * 60_000).toISOString(),
  };
}

export function fakeCrtResult(input: StartCrtRun['input']): CrtResult {
  const hostnames = [input.apex, `mail.${input.apex}`, `www.${input.apex}`].slice(0, input.limit);
  return {
    status: 'completed',
    summary: `Found 3 distinct hostnames for ${input.apex} in certificate-transparency logs (crt.sh); returning ${hostnames.length} (limit ${input.limit}).`,
    apex: input.apex,
    count: hostnames.length,
    limit: input.limit,
    include_first_seen: input.include_first_seen,
    observations: hostnames.map((hostname) =>
      input.include_first_seen ? { hostname, first_seen: '2024-03-05T12:34:56.789Z' } : { hostname },
    ),
    provider: 'crt.sh',
    live_hosts_verified: false,
    disclosure: 'Certificate-transparency observations do not prove that a host is live.',
  };
}

export class FakeOrchestrator implements RunOrchestrator {
  /** Every startCrtRun request received, in order. */
  readonly starts: StartCrtRun[] = [];
  getRunCalls = 0;
  /** How runs started from now on end. */
  outcome: FakeOutcome = 'complete';
  /** When true, every call fails the way an RPC timeout does (503). */
  down = false;
  /** Told when a run reaches a terminal state (the harness delivers it as `run.finished`); null loses it. */
  onFinished: ((runId: string) => void) | null = null;
  private readonly runs = new Map<string, StoredRun>();
  private readonly byKey = new Map<string, string>();

  async startCrtRun(request: StartCrtRun): Promise<StartedRun> {
    this.starts.push(request);
    if (this.down) throw this.unavailable();
    const requestKey = JSON.stringify([request.input, request.quote_id ?? null, request.client_type]);
    const key = request.idempotency_key;
    if (key !== undefined) {
      const runId = this.byKey.get(`${request.client_id} ${key}`);
      const existing = runId === undefined ? undefined : this.runs.get(runId);
      if (existing !== undefined) {
        if (existing.requestKey === requestKey) {
          return { replay: true, run: existing.record, quote: existing.quote };
        }
        throw new ValidationError(
          `Idempotency-Key "${key}" was already used with a different request (run ${existing.record.run_id}); send a new key for a new request`,
        );
      }
    }
    const runId = request.quote_id ?? randomUUID();
    if (this.runs.has(runId)) {
      throw new ConflictError(
        `quote_id ${runId} has already been used for a run; quote again or omit quote_id`,
      );
    }
    const now = new Date().toISOString();
    const record: RunRecord = {
      run_id: runId,
      status: 'queued',
      slug: 'crt',
      client_type: request.client_type,
      quote_id: runId,
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: null,
    };
    const quote = freeQuote(runId, now);
    this.runs.set(runId, { clientId: request.client_id, requestKey, input: request.input, record, quote });
    if (key !== undefined) this.byKey.set(`${request.client_id} ${key}`, runId);
    const outcome = this.outcome;
    // Like the real platform: the answer says "queued", the run ends later.
    if (outcome !== 'stay-queued') setImmediate(() => this.finish(runId, outcome));
    return { replay: false, run: record, quote };
  }

  async getRun(clientId: string, runId: string): Promise<RunRecord> {
    this.getRunCalls += 1;
    if (this.down) throw this.unavailable();
    const run = this.runs.get(runId);
    // Another client's run is indistinguishable from a missing one.
    if (run === undefined || run.clientId !== clientId) throw new NotFoundError(`unknown run: ${runId}`);
    return run.record;
  }

  /** Ends a run the way the worker's report would, then "publishes" run.finished. */
  finish(runId: string, outcome: Exclude<FakeOutcome, 'stay-queued'>): void {
    const run = this.runs.get(runId);
    if (run === undefined) throw new Error(`fake orchestrator: no run ${runId}`);
    const now = new Date().toISOString();
    const base = { ...run.record, updated_at: now, started_at: now, finished_at: now };
    if (outcome === 'complete') {
      run.record = { ...base, status: 'completed', result: fakeCrtResult(run.input) };
    } else if (outcome === 'bad-result') {
      run.record = { ...base, status: 'completed', result: { status: 'completed', apex: run.input.apex } };
    } else {
      const error =
        outcome === 'fail-provider'
          ? { code: 'provider_unavailable', message: PROVIDER_FAILURE }
          : { code: 'internal', message: 'internal error' };
      run.record = { ...base, status: 'failed', error };
    }
    this.onFinished?.(runId);
  }

  /** A run owned by `clientId`, e.g. another client's, for 404 checks. */
  seed(clientId: string, input: StartCrtRun['input']): string {
    const runId = randomUUID();
    const now = new Date().toISOString();
    const record: RunRecord = {
      run_id: runId,
      status: 'completed',
      slug: 'crt',
      client_type: 'api',
      quote_id: runId,
      created_at: now,
      updated_at: now,
      started_at: now,
      finished_at: now,
      result: fakeCrtResult(input),
    };
    this.runs.set(runId, { clientId, requestKey: '', input, record, quote: freeQuote(runId, now) });
    return runId;
  }

  private unavailable(): ServiceUnavailableError {
    return new ServiceUnavailableError('orchestrator service did not answer within 1000 ms');
  }
}
