import { RunRecord } from '@svc/contracts';
import { MAX_EVENT_RUN_BYTES, runFinishedEvent, type StoredRun } from './run-finished';

const RUN_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';
const CLIENT_ID = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';

function stored(result: Record<string, unknown>): StoredRun {
  return {
    id: RUN_ID,
    publicId: RUN_ID,
    clientId: CLIENT_ID,
    status: 'completed',
    slug: 'crt',
    clientType: 'api',
    quoteId: RUN_ID,
    createdAt: new Date('2026-09-15T12:00:00.000Z'),
    updatedAt: new Date('2026-09-15T12:00:02.000Z'),
    startedAt: new Date('2026-09-15T12:00:01.000Z'),
    finishedAt: new Date('2026-09-15T12:00:02.000Z'),
    result,
    error: null,
    attempts: 1,
    priceMicros: 0n,
    runtime: 'node',
    executionStatus: 'supported',
    lastError: null,
    cancelRequestedAt: null,
    jobId: null,
    settledAt: null,
  };
}

/** A result whose record serializes to exactly `bytes` bytes of JSON. */
function resultOfRecordSize(bytes: number): Record<string, unknown> {
  const empty = Buffer.byteLength(JSON.stringify(runFinishedEvent(stored({ pad: '' })).run), 'utf8');
  return { pad: 'x'.repeat(bytes - empty) };
}

describe('runFinishedEvent', () => {
  it('names the run, its state and owner, and carries the RunRecord getRun would return', () => {
    const event = runFinishedEvent(stored({ count: 1 }));
    expect(event).toEqual({
      run_id: RUN_ID,
      status: 'completed',
      client_id: CLIENT_ID,
      run: {
        run_id: RUN_ID,
        status: 'completed',
        slug: 'crt',
        client_type: 'api',
        quote_id: RUN_ID,
        created_at: '2026-09-15T12:00:00.000Z',
        updated_at: '2026-09-15T12:00:02.000Z',
        started_at: '2026-09-15T12:00:01.000Z',
        finished_at: '2026-09-15T12:00:02.000Z',
        attempts: 1,
        price_usd: '0.00',
        runtime: 'node',
        waiting_for_runtime: null,
        cancel_requested_at: null,
        status_message: 'completed',
        result: { count: 1 },
      },
    });
    expect(RunRecord.safeParse(event.run).success).toBe(true);
  });

  it('carries a record of exactly MAX_EVENT_RUN_BYTES and omits one a byte larger', () => {
    const atLimit = runFinishedEvent(stored(resultOfRecordSize(MAX_EVENT_RUN_BYTES)));
    expect(Buffer.byteLength(JSON.stringify(atLimit.run), 'utf8')).toBe(MAX_EVENT_RUN_BYTES);
    const over = runFinishedEvent(stored(resultOfRecordSize(MAX_EVENT_RUN_BYTES + 1)));
    expect(over).toEqual({ run_id: RUN_ID, status: 'completed', client_id: CLIENT_ID });
  });
});
