import {
  CrtCompletedRunResponse,
  CrtInput,
  CrtObservation,
  CrtReplayRunResponse,
  CrtResult,
  CrtRunRequest,
  CrtRunResponse,
} from '../src/index';

const RUN_ID = '6ba7b810-9dad-41d1-80b4-00c04fd430c8';

function result(overrides: Record<string, unknown> = {}) {
  return {
    status: 'completed',
    summary: '2 hostnames seen in certificate-transparency logs for example.com',
    apex: 'example.com',
    count: 2,
    limit: 100,
    include_first_seen: true,
    observations: [
      { hostname: 'www.example.com', first_seen: '2024-01-02T03:04:05Z' },
      { hostname: 'mail.example.com', first_seen: '2024-01-02T03:04:05.123+02:00' },
    ],
    provider: 'crt.sh',
    live_hosts_verified: false,
    disclosure: 'Observations do not prove that hosts are live.',
    ...overrides,
  };
}

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
    for (const limit of [0, 1001, 1.5, '10', -1, null]) {
      expect(CrtInput.safeParse({ apex: 'example.com', limit }).success).toBe(false);
    }
  });

  test('include_first_seen must be a boolean (no coercion)', () => {
    expect(CrtInput.safeParse({ apex: 'example.com', include_first_seen: 'true' }).success).toBe(false);
    expect(CrtInput.parse({ apex: 'example.com', include_first_seen: true }).include_first_seen).toBe(true);
  });

  test('no additional properties', () => {
    expect(CrtInput.safeParse({ apex: 'example.com', extra: 1 }).success).toBe(false);
  });

  test('can be refined with the registrable-domain rule later', () => {
    const refined = CrtInput.refine((input) => input.apex.split('.').length === 2, {
      path: ['apex'],
      message: 'must be a registrable domain',
    });
    expect(refined.safeParse({ apex: 'www.example.com' }).success).toBe(false);
    expect(refined.safeParse({ apex: 'example.com' }).success).toBe(true);
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
  });

  test('quote_id must be a UUID', () => {
    expect(CrtRunRequest.parse({ input: { apex: 'example.com' }, quote_id: RUN_ID }).quote_id).toBe(RUN_ID);
    expect(CrtRunRequest.safeParse({ input: { apex: 'example.com' }, quote_id: 'q-1' }).success).toBe(false);
  });

  test('client_type: 2..24 of [A-Za-z0-9_-]', () => {
    expect(
      CrtRunRequest.safeParse({ input: { apex: 'example.com' }, client_type: 'my-agent_2' }).success,
    ).toBe(true);
    for (const client_type of ['a', 'x'.repeat(25), 'bad type', 'bad/type']) {
      expect(CrtRunRequest.safeParse({ input: { apex: 'example.com' }, client_type }).success).toBe(false);
    }
  });

  test('no additional properties, at the envelope and in input', () => {
    expect(
      CrtRunRequest.safeParse({ input: { apex: 'example.com' }, idempotency_key: 'abcdefgh' }).success,
    ).toBe(false);
    expect(CrtRunRequest.safeParse({ input: { apex: 'example.com', foo: 1 } }).success).toBe(false);
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

describe('crt run responses (spec §2.6)', () => {
  const completed = {
    ok: true,
    run_id: RUN_ID,
    status: 'completed',
    quote: { quote_id: RUN_ID },
    result: result(),
  };

  test('completed response: all required, strict', () => {
    expect(CrtCompletedRunResponse.parse(completed)).toEqual(completed);
    expect(CrtCompletedRunResponse.safeParse({ ...completed, status: 'queued' }).success).toBe(false);
    expect(CrtCompletedRunResponse.safeParse({ ...completed, ok: false }).success).toBe(false);
    expect(CrtCompletedRunResponse.safeParse({ ...completed, idempotent_replay: true }).success).toBe(false);
    const { quote: _quote, ...withoutQuote } = completed;
    expect(CrtCompletedRunResponse.safeParse(withoutQuote).success).toBe(false);
  });

  test('replay response: ok, run_id, status, idempotent_replay required; the rest optional', () => {
    const minimal = { ok: true, run_id: RUN_ID, status: 'completed', idempotent_replay: true };
    expect(CrtReplayRunResponse.safeParse(minimal).success).toBe(true);
    expect(
      CrtReplayRunResponse.safeParse({ ...minimal, quote: null, run: null, message: 'replayed' }).success,
    ).toBe(true);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, idempotent_replay: false }).success).toBe(false);
    const { status: _status, ...withoutStatus } = minimal;
    expect(CrtReplayRunResponse.safeParse(withoutStatus).success).toBe(false);
    expect(CrtReplayRunResponse.safeParse({ ...minimal, quote: 'q' }).success).toBe(false);
    // Not marked "no additional properties" by the spec: extra keys are kept.
    expect(CrtReplayRunResponse.parse({ ...minimal, result: { a: 1 } })).toEqual({
      ...minimal,
      result: { a: 1 },
    });
  });

  test('CrtRunResponse accepts either shape', () => {
    expect(CrtRunResponse.safeParse(completed).success).toBe(true);
    expect(
      CrtRunResponse.safeParse({ ok: true, run_id: RUN_ID, status: 'completed', idempotent_replay: true })
        .success,
    ).toBe(true);
    expect(CrtRunResponse.safeParse({ ok: false, error: 'x' }).success).toBe(false);
  });
});
