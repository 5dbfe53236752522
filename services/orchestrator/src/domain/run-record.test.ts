import { RunRecord } from '@svc/contracts';
import type { Run } from '@svc/db';
import { storedQuote, toRunRecord } from './run-record';

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
    dispatchedAt: null,
    createdAt: new Date('2026-09-15T12:00:00.000Z'),
    updatedAt: new Date('2026-09-15T12:00:01.000Z'),
    startedAt: null,
    finishedAt: null,
    ...parts,
  };
}

describe('toRunRecord', () => {
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

describe('storedQuote', () => {
  it('returns the quote stored with the run, or null without a valid one', () => {
    expect(storedQuote(row({}))).toEqual(QUOTE);
    expect(storedQuote(row({ quote: null }))).toBeNull();
    expect(storedQuote(row({ quote: { quote_id: 'nope' } }))).toBeNull();
  });
});
