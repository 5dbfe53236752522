import { createHash } from 'node:crypto';
import { CrtRunRequest, IdempotencyKey } from '@svc/contracts';
import { buildCrtBatchPlan, planIdempotencyKey } from './plan';
import { CrtBatchPlanInput, CrtBatchPlanResult } from './schema';

const RUN_ID = '6f1c2b1e-7d4a-4a8e-9b7e-2f9d7c3a1b00';
const OTHER_RUN_ID = '0b8a3c55-1e2f-4c6d-8a9b-7c6d5e4f3a21';

/** The input as the orchestrator hands it over: parsed, defaults applied. */
const plan = (raw: unknown, runId = RUN_ID) => buildCrtBatchPlan(runId, CrtBatchPlanInput.parse(raw));

describe('buildCrtBatchPlan', () => {
  test('plans one crt run per valid apex, with the exact request, and rejects the rest with reasons', () => {
    const result = plan({
      apexes: [
        'example.com',
        ' Example.ORG ',
        'www.example.com',
        'example.com',
        'co.uk',
        'not a domain',
        'bbc.co.uk',
      ],
      limit: 250,
      include_first_seen: true,
    });

    expect(CrtBatchPlanResult.safeParse(result).success).toBe(true);
    expect(result.server_processing).toBe(false);
    expect(result.planned.map((run) => [run.index, run.apex])).toEqual([
      [0, 'example.com'],
      [1, 'example.org'],
      [6, 'bbc.co.uk'],
    ]);
    expect(result.planned[0]).toEqual({
      index: 0,
      apex: 'example.com',
      idempotency_key: planIdempotencyKey(RUN_ID, 'example.com'),
      request: {
        method: 'POST',
        path: '/api/capabilities/crt/run',
        headers: { 'Idempotency-Key': planIdempotencyKey(RUN_ID, 'example.com') },
        body: { input: { apex: 'example.com', limit: 250, include_first_seen: true }, client_type: 'api' },
      },
    });

    expect(result.rejected).toEqual([
      {
        index: 2,
        entry: 'www.example.com',
        reason: 'www.example.com is a subdomain; give its registrable domain example.com',
      },
      { index: 3, entry: 'example.com', reason: 'duplicate of entry 0' },
      {
        index: 4,
        entry: 'co.uk',
        reason: expect.stringMatching(
          /^co\.uk is a public suffix \(ICANN section of the Public Suffix List\)/,
        ),
      },
      {
        index: 5,
        entry: 'not a domain',
        reason: expect.stringContaining('is not an RFC 1123 hostname label'),
      },
    ]);
    expect(result.counts).toEqual({ submitted: 7, planned: 3, rejected: 4 });
    expect(result.summary).toBe('3 crt runs planned, 4 entries rejected; the server ran nothing');
  });

  test('every planned body is a valid CrtRunRequest and every key a valid Idempotency-Key (spec §4 rule 2)', () => {
    const result = plan({ apexes: ['example.com', 'github.io', 'alice.github.io', 'xn--bcher-kva.de'] });
    expect(result.planned.map((run) => run.apex)).toEqual([
      'example.com',
      'alice.github.io',
      'xn--bcher-kva.de',
    ]);
    for (const run of result.planned) {
      const body = CrtRunRequest.parse(run.request.body);
      expect(body).toEqual(run.request.body);
      // Defaults of crt applied when the plan input leaves them out.
      expect(body.input).toEqual({ apex: run.apex, limit: 100, include_first_seen: false });
      expect(IdempotencyKey.safeParse(run.idempotency_key).success).toBe(true);
      expect(run.request.headers['Idempotency-Key']).toBe(run.idempotency_key);
    }
  });

  test('keys are crt-plan.<24 hex of sha256(runId:apex)>: stable for a run, distinct per apex and per run', () => {
    const expected = `crt-plan.${createHash('sha256').update(`${RUN_ID}:example.com`).digest('hex').slice(0, 24)}`;
    expect(planIdempotencyKey(RUN_ID, 'example.com')).toBe(expected);
    expect(expected).toMatch(/^crt-plan\.[0-9a-f]{24}$/);

    const input = { apexes: ['example.com', 'example.org'] };
    const first = plan(input);
    expect(plan(input)).toEqual(first);
    const [com, org] = first.planned;
    expect(com?.idempotency_key).not.toBe(org?.idempotency_key);
    expect(plan(input, OTHER_RUN_ID).planned[0]?.idempotency_key).not.toBe(com?.idempotency_key);
  });

  test('duplicates are found after trimming and lowercasing and point at the planned entry', () => {
    const result = plan({ apexes: ['EXAMPLE.COM', 'example.com', '\texample.com\n', 'Example.Com'] });
    expect(result.planned).toHaveLength(1);
    expect(result.planned[0]).toMatchObject({ index: 0, apex: 'example.com' });
    expect(result.rejected.map((entry) => entry.reason)).toEqual([
      'duplicate of entry 0',
      'duplicate of entry 0',
      'duplicate of entry 0',
    ]);
    // The entry is reported as submitted, so the client can find it.
    expect(result.rejected[1]?.entry).toBe('\texample.com\n');
    expect(result.summary).toBe('1 crt run planned, 3 entries rejected; the server ran nothing');
  });

  test('a repeated invalid entry keeps its own reason (the thing to fix), not "duplicate"', () => {
    const result = plan({ apexes: ['localhost', 'localhost'] });
    expect(result.planned).toEqual([]);
    expect(result.rejected.map((entry) => entry.index)).toEqual([0, 1]);
    for (const entry of result.rejected) expect(entry.reason).not.toMatch(/duplicate/);
    expect(result.summary).toBe('0 crt runs planned, 2 entries rejected; the server ran nothing');
  });

  test.each([
    ['', 'must not be empty'],
    ['   ', 'must not be empty'],
    ['192.0.2.1', 'must be a domain name, not an IP address'],
    ['example.com.', 'must not end with a dot'],
    ['bücher.de', 'must be ASCII: write an internationalised domain in its xn-- (punycode) form'],
    // KELVIN SIGN: lowercasing it would give an ASCII "k"; it must stay non-ASCII and be rejected.
    ['\u212Aexample.com', 'must be ASCII: write an internationalised domain in its xn-- (punycode) form'],
    ['https://example.com', expect.stringContaining('is not an RFC 1123 hostname label')],
  ])('%j is rejected: %s', (entry, reason) => {
    const result = plan({ apexes: [entry] });
    expect(result.rejected).toEqual([{ index: 0, entry, reason }]);
    expect(result.counts).toEqual({ submitted: 1, planned: 0, rejected: 1 });
  });

  test('a full plan of 500 entries', () => {
    const apexes = Array.from({ length: 500 }, (_, i) => `example-${i}.com`);
    const result = plan({ apexes });
    expect(result.counts).toEqual({ submitted: 500, planned: 500, rejected: 0 });
    expect(new Set(result.planned.map((run) => run.idempotency_key)).size).toBe(500);
    expect(result.summary).toBe('500 crt runs planned, 0 entries rejected; the server ran nothing');
  });
});
