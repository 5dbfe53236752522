import {
  CrtCompletedRunResponse,
  CrtInput,
  CrtObservation,
  CrtReplayRunResponse,
  CrtResult,
  CrtRunHeaders,
  CrtRunRequest,
  CrtRunResponse,
} from '../src/index';
import {
  crtResult,
  failedRunRecord,
  OTHER_ID,
  queuedRunRecord,
  quote,
  RUN_ID,
  runRecord,
} from './support/run-fixtures';

const result = crtResult;

describe('CrtInput (spec §2.6)', () => {
  test('defaults include_first_seen=false and limit=100', () => {
    expect(CrtInput.parse({ apex: 'example.com' })).toEqual({
      apex: 'example.com',
      include_first_seen: false,
      limit: 100,
    });
  });

  test('apex is required and hostname-shaped', () => {
    expect(CrtInput.safeParse({}).success).toBe(false);
    expect(CrtInput.safeParse({ apex: 'not a host' }).success).toBe(false);
    expect(CrtInput.safeParse({ apex: 'example.com.' }).success).toBe(false);
    expect(CrtInput.safeParse({ apex: 42 }).success).toBe(false);
  });

  test('limit is an integer 1..1000', () => {
    for (const limit of [1, 1000, 500])
      expect(CrtInput.safeParse({ apex: 'example.com', limit }).success).toBe(true);
    for (const limit of [0, 1001, 1.5, '10', -1, null, true, Number.NaN, Number.POSITIVE_INFINITY, 1e21]) {
      expect(CrtInput.safeParse({ apex: 'example.com', limit }).success).toBe(false);
    }
  });

  test('include_first_seen must be a boolean (no coercion)', () => {
    for (const include_first_seen of ['true', 'false', 1, 0, null, []]) {
      expect(CrtInput.safeParse({ apex: 'example.com', include_first_seen }).success).toBe(false);
    }
    expect(CrtInput.parse({ apex: 'example.com', include_first_seen: false }).include_first_seen).toBe(false);
    expect(CrtInput.parse({ apex: 'example.com', include_first_seen: true }).include_first_seen).toBe(true);
  });

  test('no additional properties, not even ones that look like ours', () => {
    for (const extra of [{ extra: 1 }, { Apex: 'example.com' }, { first_seen: true }, { quote_id: RUN_ID }]) {
      const parsed = CrtInput.safeParse({ apex: 'example.com', ...extra });
      expect(parsed.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys' })]);
    }
  });

  test('input must be an object', () => {
    for (const input of [null, 'example.com', ['example.com'], 42]) {
      expect(CrtInput.safeParse(input).success).toBe(false);
    }
  });

  test('apex carries the registrable-domain rule and is lowercased (apex.test.ts has the cases)', () => {
    expect(CrtInput.parse({ apex: 'Example.CO.UK' }).apex).toBe('example.co.uk');
    const subdomain = CrtInput.safeParse({ apex: 'www.example.com' });
    expect(subdomain.error?.issues).toEqual([
      expect.objectContaining({
        path: ['apex'],
        message: 'www.example.com is a subdomain; give its registrable domain example.com',
      }),
    ]);
    expect(CrtInput.safeParse({ apex: 'github.io' }).success).toBe(false);
  });
});

describe('CrtRunRequest (spec §2.6)', () => {
  test('input is required; client_type defaults to api; quote_id optional', () => {
    expect(CrtRunRequest.parse({ input: { apex: 'example.com' } })).toEqual({
      input: { apex: 'example.com', include_first_seen: false, limit: 100 },
      client_type: 'api',
    });
    expect(CrtRunRequest.safeParse({}).success).toBe(false);
    expect(CrtRunRequest.safeParse({ client_type: 'api' }).success).toBe(false);
    for (const body of [null, [], 'input', { input: null }, { input: 'example.com' }]) {
      expect(CrtRunRequest.safeParse(body).success).toBe(false);
    }
  });

  test('parsed input is normalised: the apex lowercased, defaults set (the idempotency hash relies on it)', () => {
    expect(
      CrtRunRequest.parse({ input: { apex: 'EXAMPLE.com', limit: 5 }, quote_id: RUN_ID, client_type: 'mcp' }),
    ).toEqual({
      input: { apex: 'example.com', include_first_seen: false, limit: 5 },
      quote_id: RUN_ID,
      client_type: 'mcp',
    });
  });

  test('quote_id must be a UUID', () => {
    expect(CrtRunRequest.parse({ input: { apex: 'example.com' }, quote_id: RUN_ID }).quote_id).toBe(RUN_ID);
    expect(CrtRunRequest.parse({ input: { apex: 'example.com' }, quote_id: OTHER_ID }).quote_id).toBe(
      OTHER_ID,
    );
    for (const quote_id of ['q-1', '', RUN_ID.replaceAll('-', ''), `{${RUN_ID}}`, `${RUN_ID} `, 42, null]) {
      expect(CrtRunRequest.safeParse({ input: { apex: 'example.com' }, quote_id }).success).toBe(false);
    }
  });

  test('client_type: 2..24 of [A-Za-z0-9_-]', () => {
    expect(
      CrtRunRequest.safeParse({ input: { apex: 'example.com' }, client_type: 'my-agent_2' }).success,
    ).toBe(true);
    for (const client_type of ['ab', 'x'.repeat(24), 'MCP', 'a_b-C9']) {
      expect(CrtRunRequest.parse({ input: { apex: 'example.com' }, client_type }).client_type).toBe(
        client_type,
      );
    }
    for (const client_type of [
      'a',
      '',
      'x'.repeat(25),
      'bad type',
      'bad/type',
      'agent.v2',
      'agént',
      42,
      null,
    ]) {
      expect(CrtRunRequest.safeParse({ input: { apex: 'example.com' }, client_type }).success).toBe(false);
    }
  });

  test('no additional properties, at the envelope and in input', () => {
    expect(
      CrtRunRequest.safeParse({ input: { apex: 'example.com' }, idempotency_key: 'abcdefgh' }).success,
    ).toBe(false);
    expect(CrtRunRequest.safeParse({ input: { apex: 'example.com', foo: 1 } }).success).toBe(false);
    expect(CrtRunRequest.safeParse({ input: { apex: 'example.com' }, apex: 'example.com' }).success).toBe(
      false,
    );
  });
});

describe('CrtRunHeaders: the Idempotency-Key header (spec §4 rule 2, §8)', () => {
  test('optional; 8..190 characters of [A-Za-z0-9._:-]', () => {
    expect(CrtRunHeaders.parse({})).toEqual({});
    for (const key of ['abcdefgh', 'x'.repeat(190), 'run:2026-11-21.a_b-C', '01234567']) {
      expect(CrtRunHeaders.parse({ 'idempotency-key': key })).toEqual({ 'idempotency-key': key });
    }
    for (const key of [
      'abcdefg',
      'x'.repeat(191),
      'has space',
      'a/b/c/d/e',
      'key=value1',
      'ключ-12345678',
      '',
    ]) {
      expect({ key, ok: CrtRunHeaders.safeParse({ 'idempotency-key': key }).success }).toEqual({
        key,
        ok: false,
      });
    }
  });

  test('other request headers are none of its business', () => {
    expect(
      CrtRunHeaders.parse({
        'content-type': 'application/json',
        authorization: 'Bearer x',
        'idempotency-key': 'abcdefgh',
      }),
    ).toEqual({ 'idempotency-key': 'abcdefgh' });
  });
});

describe('CrtObservation and CrtResult (spec §2.6)', () => {
  test('observation: hostname required, first_seen optional date-time, nothing else', () => {
    expect(CrtObservation.safeParse({ hostname: 'www.example.com' }).success).toBe(true);
    expect(CrtObservation.safeParse({}).success).toBe(false);
    expect(CrtObservation.safeParse({ hostname: 'www.example.com', first_seen: '2024-01-02' }).success).toBe(
      false,
    );
    expect(CrtObservation.safeParse({ hostname: 'www.example.com', ip: '1.2.3.4' }).success).toBe(false);
  });

  test('a full result parses', () => {
    expect(CrtResult.parse(result())).toEqual(result());
  });

  test('every field is required', () => {
    for (const key of Object.keys(result())) {
      const partial: Record<string, unknown> = result();
      delete partial[key];
      expect({ key, success: CrtResult.safeParse(partial).success }).toEqual({ key, success: false });
    }
  });

  test('constants, bounds and strictness', () => {
    expect(CrtResult.safeParse(result({ status: 'running' })).success).toBe(false);
    expect(CrtResult.safeParse(result({ live_hosts_verified: true })).success).toBe(false);
    expect(CrtResult.safeParse(result({ count: -1 })).success).toBe(false);
    expect(CrtResult.safeParse(result({ count: 1001 })).success).toBe(false);
    expect(CrtResult.safeParse(result({ count: 0, observations: [] })).success).toBe(true);
    expect(CrtResult.safeParse(result({ limit: 0 })).success).toBe(false);
    expect(CrtResult.safeParse(result({ limit: 1001 })).success).toBe(false);
    const many = Array.from({ length: 1001 }, (_, i) => ({ hostname: `h${i}.example.com` }));
    expect(CrtResult.safeParse(result({ observations: many })).success).toBe(false);
    expect(CrtResult.safeParse(result({ observations: many.slice(0, 1000) })).success).toBe(true);
    expect(CrtResult.safeParse(result({ extra: true })).success).toBe(false);
  });
});

describe('crt run responses (spec §2.6, docs/decisions.md C4)', () => {
  const completed = {
    ok: true,
    run_id: RUN_ID,
    status: 'completed',
    quote: quote(),
    result: result(),
  };
  const replay = {
    ok: true,
    run_id: RUN_ID,
    status: 'completed',
    idempotent_replay: true,
    quote: quote(),
    run: runRecord(),
    message:
      'replay of run 6ba7b810-9dad-41d1-80b4-00c04fd430c8 (Idempotency-Key "abcdefgh"): no new work was done',
  };

  test('completed response: exactly ok, run_id, status, quote, result', () => {
    expect(CrtCompletedRunResponse.parse(completed)).toEqual(completed);
    expect(Object.keys(CrtCompletedRunResponse.shape).sort()).toEqual([
      'ok',
      'quote',
      'result',
      'run_id',
      'status',
    ]);
    expect(CrtCompletedRunResponse.safeParse({ ...completed, status: 'queued' }).success).toBe(false);
    expect(CrtCompletedRunResponse.safeParse({ ...completed, ok: false }).success).toBe(false);
    expect(CrtCompletedRunResponse.safeParse({ ...completed, run_id: 'run-1' }).success).toBe(false);
    for (const extra of [{ idempotent_replay: true }, { run: runRecord() }, { message: 'done' }]) {
      expect(CrtCompletedRunResponse.safeParse({ ...completed, ...extra }).success).toBe(false);
    }
    for (const key of Object.keys(completed)) {
      const partial: Record<string, unknown> = { ...completed };
      delete partial[key];
      expect({ key, ok: CrtCompletedRunResponse.safeParse(partial).success }).toEqual({ key, ok: false });
    }
  });

  test('completed response: the quote is a full Quote and the result a full CrtResult', () => {
    expect(CrtCompletedRunResponse.safeParse({ ...completed, quote: { quote_id: RUN_ID } }).success).toBe(
      false,
    );
    expect(CrtCompletedRunResponse.safeParse({ ...completed, quote: quote({ extra: 1 }) }).success).toBe(
      false,
    );
    expect(CrtCompletedRunResponse.safeParse({ ...completed, quote: quote({ price_usd: 0 }) }).success).toBe(
      false,
    );
    expect(CrtCompletedRunResponse.safeParse({ ...completed, result: result({ extra: 1 }) }).success).toBe(
      false,
    );
    expect(CrtCompletedRunResponse.safeParse({ ...completed, result: { a: 1 } }).success).toBe(false);
  });

  test('replay response: all seven fields as we send them', () => {
    expect(CrtReplayRunResponse.parse(replay)).toEqual(replay);
    // A replay of a failed run is still a replay (spec §4 rule 2: the key names one attempt).
    expect(
      CrtReplayRunResponse.safeParse({ ...replay, status: 'failed', run: failedRunRecord() }).success,
    ).toBe(true);
    // A replay that arrives while the first run is still queued.
    expect(
      CrtReplayRunResponse.safeParse({ ...replay, status: 'queued', run: queuedRunRecord() }).success,
    ).toBe(true);
  });

  test('replay response: ok, run_id, status, idempotent_replay required; quote, run, message optional', () => {
    const minimal = { ok: true, run_id: RUN_ID, status: 'completed', idempotent_replay: true };
    expect(CrtReplayRunResponse.parse(minimal)).toEqual(minimal);
    expect(
      CrtReplayRunResponse.safeParse({ ...minimal, quote: null, run: null, message: 'replayed' }).success,
    ).toBe(true);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, idempotent_replay: false }).success).toBe(false);
    for (const key of Object.keys(minimal)) {
      const partial: Record<string, unknown> = { ...minimal };
      delete partial[key];
      expect({ key, ok: CrtReplayRunResponse.safeParse(partial).success }).toEqual({ key, ok: false });
    }
  });

  test('replay response is strict: no unknown keys, and quote and run are the real records', () => {
    const minimal = { ok: true, run_id: RUN_ID, status: 'completed', idempotent_replay: true };
    expect(CrtReplayRunResponse.safeParse({ ...replay, result: result() }).success).toBe(false);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, extra: 1 }).success).toBe(false);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, quote: 'q' }).success).toBe(false);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, quote: { quote_id: RUN_ID } }).success).toBe(false);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, run: { run_id: RUN_ID } }).success).toBe(false);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, run: runRecord({ extra: 1 }) }).success).toBe(false);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, run: runRecord({ status: 'done' }) }).success).toBe(
      false,
    );
    expect(CrtReplayRunResponse.safeParse({ ...minimal, message: 42 }).success).toBe(false);
  });

  test('CrtRunResponse accepts either shape and nothing in between', () => {
    expect(CrtRunResponse.parse(completed)).toEqual(completed);
    expect(CrtRunResponse.parse(replay)).toEqual(replay);
    expect(CrtRunResponse.safeParse({ ...completed, idempotent_replay: true }).success).toBe(false);
    expect(CrtRunResponse.safeParse({ ...replay, result: result() }).success).toBe(false);
    expect(CrtRunResponse.safeParse({ ok: false, error: 'x' }).success).toBe(false);
  });
});
