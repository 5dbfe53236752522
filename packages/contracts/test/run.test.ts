import {
  isTerminalRunState,
  RUN_STATES,
  RunError,
  RunIdParams,
  RunRecord,
  RunStatusResponse,
  TERMINAL_RUN_STATES,
} from '../src/index';
import { failedRunRecord, queuedRunRecord, RUN_ID, runRecord } from './support/run-fixtures';

const REQUIRED = [
  'run_id',
  'status',
  'slug',
  'client_type',
  'quote_id',
  'created_at',
  'updated_at',
  'started_at',
  'finished_at',
  'attempts',
  'price_usd',
  'runtime',
  'waiting_for_runtime',
  'cancel_requested_at',
  'status_message',
];

describe('RunRecord (spec §2.3, docs/decisions.md C6)', () => {
  test('a completed, a queued and a failed run parse unchanged', () => {
    for (const record of [runRecord(), queuedRunRecord(), failedRunRecord()]) {
      expect(RunRecord.parse(record)).toEqual(record);
    }
  });

  test('every field but result and error is required; the timestamps and quote_id may be null', () => {
    for (const key of REQUIRED) {
      const partial: Record<string, unknown> = runRecord();
      delete partial[key];
      expect({ key, ok: RunRecord.safeParse(partial).success }).toEqual({ key, ok: false });
    }
    expect(RunRecord.safeParse(runRecord({ quote_id: null })).success).toBe(true);
    for (const key of ['started_at', 'finished_at']) {
      expect(RunRecord.safeParse(runRecord({ [key]: null })).success).toBe(true);
    }
    for (const key of ['created_at', 'updated_at', 'run_id', 'slug', 'client_type', 'status']) {
      expect({ key, ok: RunRecord.safeParse(runRecord({ [key]: null })).success }).toEqual({
        key,
        ok: false,
      });
    }
  });

  test('field shapes: UUIDs, a RunState, RFC 3339 date-times, a slug, a client type', () => {
    for (const status of RUN_STATES) expect(RunRecord.safeParse(runRecord({ status })).success).toBe(true);
    for (const bad of [
      { run_id: 'run-1' },
      { quote_id: 'q-1' },
      { status: 'done' },
      { status: 'COMPLETED' },
      { slug: 'Crt' },
      { client_type: 'a' },
      { created_at: '2026-11-21' },
      { updated_at: 'yesterday' },
      { started_at: 1763721657123 },
      { finished_at: '2026-11-21 10:40:58' },
    ]) {
      expect({ bad, ok: RunRecord.safeParse(runRecord(bad)).success }).toEqual({ bad, ok: false });
    }
  });

  test('strict: no unknown keys (internal columns such as client_id or request_hash never leak)', () => {
    for (const extra of [
      { client_id: RUN_ID },
      { request_hash: 'ab'.repeat(32) },
      { idempotency_key: 'abcdefgh' },
    ]) {
      expect(RunRecord.safeParse(runRecord(extra)).success).toBe(false);
    }
  });

  test('result is an object; error is a RunError', () => {
    for (const result of ['done', 42, null]) {
      expect(RunRecord.safeParse(runRecord({ result })).success).toBe(false);
    }
    expect(RunRecord.safeParse(failedRunRecord({ error: { code: 'internal' } })).success).toBe(false);
    expect(RunRecord.safeParse(failedRunRecord({ error: 'provider_unavailable' })).success).toBe(false);
  });
});

describe('RunError', () => {
  test('code is a stable lowercase token; message any string; nothing else', () => {
    for (const code of ['internal', 'provider_unavailable', 'a', `a${'b'.repeat(63)}`]) {
      expect(RunError.safeParse({ code, message: 'm' }).success).toBe(true);
    }
    for (const code of [
      '',
      'Internal',
      '1internal',
      'provider-unavailable',
      'provider unavailable',
      `a${'b'.repeat(64)}`,
    ]) {
      expect({ code, ok: RunError.safeParse({ code, message: 'm' }).success }).toEqual({ code, ok: false });
    }
    expect(RunError.safeParse({ code: 'internal', message: 'internal error', stack: 'at x' }).success).toBe(
      false,
    );
    expect(RunError.safeParse({ code: 'internal' }).success).toBe(false);
  });
});

describe('RunStatusResponse (spec §4.8)', () => {
  test('is ok:true plus the RunRecord, strict', () => {
    const body = { ok: true, ...runRecord() };
    expect(RunStatusResponse.parse(body)).toEqual(body);
    expect(RunStatusResponse.parse({ ok: true, ...queuedRunRecord() })).toEqual({
      ok: true,
      ...queuedRunRecord(),
    });
    expect(RunStatusResponse.safeParse(runRecord()).success).toBe(false);
    expect(RunStatusResponse.safeParse({ ...body, ok: false }).success).toBe(false);
    expect(RunStatusResponse.safeParse({ ...body, extra: 1 }).success).toBe(false);
    expect(RunStatusResponse.safeParse({ ok: true, run: runRecord() }).success).toBe(false);
  });
});

describe('RunIdParams (docs/decisions.md C7)', () => {
  test('run_id must be a UUID; the issue names the path parameter', () => {
    expect(RunIdParams.parse({ run_id: RUN_ID })).toEqual({ run_id: RUN_ID });
    for (const run_id of ['abc', '', `${RUN_ID}x`, '../etc/passwd', RUN_ID.replaceAll('-', '')]) {
      const parsed = RunIdParams.safeParse({ run_id });
      expect({ run_id, paths: parsed.error?.issues.map((issue) => issue.path) }).toEqual({
        run_id,
        paths: [['run_id']],
      });
    }
    expect(RunIdParams.safeParse({}).success).toBe(false);
  });
});

describe('terminal run states (spec §3)', () => {
  test('completed, failed and cancelled are terminal; the rest are not', () => {
    expect([...TERMINAL_RUN_STATES].sort()).toEqual(['cancelled', 'completed', 'failed']);
    expect(RUN_STATES.filter((state) => isTerminalRunState(state))).toEqual([
      'completed',
      'failed',
      'cancelled',
    ]);
    expect(RUN_STATES.filter((state) => !isTerminalRunState(state))).toEqual([
      'queued',
      'running',
      'retrying',
    ]);
  });
});
