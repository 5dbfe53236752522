import { RunRecord, RunSummary } from '@svc/contracts';
import type { Run } from '@svc/db';
import { storedQuote, toRunRecord, toRunSummary } from './run-record';

const RUN_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';
const QUOTE = {
  quote_id: RUN_ID,
  slug: 'crt',
  price_usd: '0.00',
  currency: 'USD',
  wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' },
  created_at: '2026-09-15T12:00:00.000Z',
  expires_at: '2026-09-15T12:15:00.000Z',
};
const RESULT = { status: 'completed', apex: 'example.com', count: 0 };

function row(parts: Partial<Run>): Run {
  return {
    id: RUN_ID,
    publicId: RUN_ID,
    clientId: '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e',
    slug: 'crt',
    status: 'queued',
    clientType: 'api',
    quoteId: RUN_ID,
    quote: QUOTE,
    idempotencyKey: null,
    requestHash: 'a'.repeat(64),
    input: { apex: 'example.com', include_first_seen: false, limit: 100 },
    result: null,
    error: null,
    metrics: null,
    attempts: 0,
    priceMicros: 0n,
    runtime: 'node',
    executionStatus: 'supported',
    lastError: null,
    cancelRequestedAt: null,
    dispatchedAt: null,
    holdPending: false,
    dispatches: 0,
    jobId: null,
    settledAt: null,
    files: null,
    createdAt: new Date('2026-09-15T12:00:00.000Z'),
    updatedAt: new Date('2026-09-15T12:00:01.000Z'),
    startedAt: null,
    finishedAt: null,
    ...parts,
  };
}

describe('toRunRecord', () => {
  it('shows the id its owner knows the run by, never the internal one (decisions C16)', () => {
    const publicId = '9d4c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    const record = toRunRecord(row({ publicId, quoteId: publicId }));
    expect(record.run_id).toBe(publicId);
    expect(record.quote_id).toBe(publicId);
    expect(JSON.stringify(record)).not.toContain(RUN_ID);
  });

  it('maps a queued run: ISO timestamps, nulls while unset, no result or error', () => {
    const record = toRunRecord(row({}));
    expect(record).toEqual({
      run_id: RUN_ID,
      status: 'queued',
      slug: 'crt',
      client_type: 'api',
      quote_id: RUN_ID,
      created_at: '2026-09-15T12:00:00.000Z',
      updated_at: '2026-09-15T12:00:01.000Z',
      started_at: null,
      finished_at: null,
      attempts: 0,
      price_usd: '0.00',
      runtime: 'node',
      waiting_for_runtime: null,
      cancel_requested_at: null,
      status_message: 'queued: waiting for a worker',
    });
    expect(RunRecord.parse(record)).toEqual(record);
  });

  it('adds the result only once completed', () => {
    const times = {
      startedAt: new Date('2026-09-15T12:00:02Z'),
      finishedAt: new Date('2026-09-15T12:00:03Z'),
    };
    const completed = toRunRecord(row({ status: 'completed', result: RESULT, ...times }));
    expect(completed).toMatchObject({
      result: RESULT,
      started_at: '2026-09-15T12:00:02.000Z',
      finished_at: '2026-09-15T12:00:03.000Z',
    });
    expect(completed).not.toHaveProperty('error');
    // A result stored on a run that is not completed (never written so, but) is not shown.
    expect(toRunRecord(row({ status: 'running', result: RESULT }))).not.toHaveProperty('result');
  });

  it('adds the error only once failed, and a readable one when the stored error is not', () => {
    const error = { code: 'provider_unavailable', message: 'crt providers unavailable: …' };
    const failed = toRunRecord(row({ status: 'failed', error }));
    expect(failed.error).toEqual(error);
    expect(failed).not.toHaveProperty('result');
    expect(toRunRecord(row({ status: 'failed', error: null })).error).toEqual({
      code: 'internal',
      message: 'internal error',
    });
  });
});

describe('toRunRecord: lifecycle fields (docs/decisions.md L-A)', () => {
  const browserRun = { slug: 'html-to-pdf', runtime: 'browser', executionStatus: 'requires_worker' };

  it('shows the price, runtime and attempts as stored', () => {
    expect(toRunRecord(row({ priceMicros: 4_000n, attempts: 2, status: 'running' }))).toMatchObject({
      price_usd: '0.004',
      runtime: 'node',
      attempts: 2,
    });
  });

  it('names the runtime a queued requires_worker run waits for, only when no worker of it is up', () => {
    const queued = row(browserRun);
    expect(toRunRecord(queued, { workerUp: false })).toMatchObject({
      waiting_for_runtime: 'browser',
      status_message:
        'queued: waiting for a worker with runtime browser; none is up yet, the run starts when one is',
    });
    expect(toRunRecord(queued, { workerUp: true })).toMatchObject({
      waiting_for_runtime: null,
      status_message: 'queued: waiting for a worker',
    });
    // Not checked (e.g. the run.finished record): not waiting.
    expect(toRunRecord(queued).waiting_for_runtime).toBeNull();
    // A supported run never waits for a runtime, even with none up.
    expect(toRunRecord(row({}), { workerUp: false }).waiting_for_runtime).toBeNull();
    // Retrying waits too; running does not.
    const retrying = row({ ...browserRun, status: 'retrying', attempts: 1, lastError: 'browser crashed' });
    expect(toRunRecord(retrying, { workerUp: false }).waiting_for_runtime).toBe('browser');
    expect(
      toRunRecord(row({ ...browserRun, status: 'running' }), { workerUp: false }).waiting_for_runtime,
    ).toBeNull();
  });

  it('shows a cancellation request on a running run', () => {
    const at = new Date('2026-09-15T12:00:05.000Z');
    const record = toRunRecord(row({ status: 'running', attempts: 1, cancelRequestedAt: at }));
    expect(record).toMatchObject({
      cancel_requested_at: '2026-09-15T12:00:05.000Z',
      status_message: 'running (attempt 1); cancellation requested at 2026-09-15T12:00:05.000Z',
    });
    expect(RunRecord.parse(record)).toEqual(record);
  });

  it('says failed with the error message, and what a plan_only run did', () => {
    const error = { code: 'render_failed', message: 'the page did not render' };
    expect(toRunRecord(row({ status: 'failed', error })).status_message).toBe(
      'failed: the page did not render',
    );
    expect(
      toRunRecord(row({ status: 'completed', result: RESULT, executionStatus: 'plan_only' })).status_message,
    ).toBe('completed: plan ready; the server ran nothing');
  });
});

describe('toRunSummary', () => {
  it('is the record a run list shows: the same fields, converted the same way', () => {
    const rows = [
      row({}),
      row({ status: 'running', startedAt: new Date('2026-09-15T12:00:02.000Z'), attempts: 1 }),
      row({
        status: 'cancelled',
        priceMicros: -5n,
        cancelRequestedAt: new Date('2026-09-15T12:00:03.000Z'),
        finishedAt: new Date('2026-09-15T12:00:04.000Z'),
      }),
    ];
    for (const stored of rows) {
      const summary = toRunSummary(stored);
      expect(RunSummary.parse(summary)).toEqual(summary);
      expect(toRunRecord(stored)).toMatchObject(summary);
    }
  });
});

describe('storedQuote', () => {
  it('returns the quote stored with the run, or null without a valid one', () => {
    expect(storedQuote(row({}))).toEqual(QUOTE);
    expect(storedQuote(row({ quote: null }))).toBeNull();
    expect(storedQuote(row({ quote: { quote_id: 'nope' } }))).toBeNull();
  });
});
