import { randomUUID } from 'node:crypto';
import { CrtCompletedRunResponse, CrtReplayRunResponse, RunStatusResponse } from '@svc/contracts';
import { PROVIDER_FAILURE } from '@svc/test-platform';
import { pollUntil } from '@svc/testkit';
import { z } from 'zod';
import { type AppHarness, CLIENT_ID, startAppHarness } from './support/app-harness';
import { errorOf, getRun, runCrt, uniqueKey } from './support/run-requests';

/**
 * POST /api/capabilities/crt/run through the app factory, the real orchestrator's handlers (in
 * process, with a crt worker whose runs end as a test says) and the real RunWaiter (the whole
 * platform path, providers included, is in crt-*.int.test.ts).
 */

describe('crt run routes (real orchestrator handlers, real run waiter)', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    app.platform.crt.outcome = 'complete';
    app.platform.rpc.clearFaults();
  });
  const starts = () => app.requests('orchestrator', 'startCrtRun');
  const runStarts = () => app.requests('orchestrator', 'startRun');

  describe('POST /api/capabilities/crt/run', () => {
    it('200 CrtCompletedRunResponse with exactly the spec fields, for the parsed request', async () => {
      const before = starts().length;
      const response = await runCrt(app, { body: { input: { apex: 'Example.COM' } } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      const json: unknown = await response.json();
      const body = CrtCompletedRunResponse.parse(json);
      expect(Object.keys(body).sort()).toEqual(['ok', 'quote', 'result', 'run_id', 'status']);
      expect(body.status).toBe('completed');
      expect(body.quote.quote_id).toBe(body.run_id);
      expect(body.result).toMatchObject({
        apex: 'example.com',
        count: 3,
        limit: 100,
        live_hosts_verified: false,
      });
      expect(starts().slice(before)).toEqual([
        {
          client_id: CLIENT_ID,
          input: { apex: 'example.com', include_first_seen: false, limit: 100 },
          client_type: 'api',
        },
      ]);
    });

    it('passes quote_id, client_type and Idempotency-Key through; the quote_id becomes the run id', async () => {
      const quoteId = randomUUID();
      const key = uniqueKey();
      const response = await runCrt(app, {
        body: {
          input: { apex: 'foo.github.io', include_first_seen: true, limit: 2 },
          quote_id: quoteId,
          client_type: 'cli_v2',
        },
        key,
      });
      expect(response.status).toBe(200);
      const body = CrtCompletedRunResponse.parse(await response.json());
      expect(body.run_id).toBe(quoteId);
      expect(body.result.observations).toEqual([
        { hostname: 'foo.github.io', first_seen: '2024-03-05T12:34:56.789Z' },
        { hostname: 'mail.foo.github.io', first_seen: '2024-03-05T12:34:56.789Z' },
      ]);
      expect(starts().at(-1)).toEqual({
        client_id: CLIENT_ID,
        input: { apex: 'foo.github.io', include_first_seen: true, limit: 2 },
        quote_id: quoteId,
        client_type: 'cli_v2',
        idempotency_key: key,
      });
    });

    it('replays the same key and request: 200 CrtReplayRunResponse with Idempotent-Replayed', async () => {
      const key = uniqueKey();
      const first = CrtCompletedRunResponse.parse(
        await (await runCrt(app, { body: { input: { apex: 'example.org' } }, key })).json(),
      );
      const response = await runCrt(app, { body: { input: { apex: 'EXAMPLE.org' } }, key });
      expect(response.status).toBe(200);
      expect(response.headers.get('idempotent-replayed')).toBe('true');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = CrtReplayRunResponse.parse(await response.json());
      expect(body).toMatchObject({
        ok: true,
        run_id: first.run_id,
        status: 'completed',
        idempotent_replay: true,
        quote: first.quote,
        message: `replay of run ${first.run_id} (Idempotency-Key "${key}"): no new work was done`,
      });
      expect(body.run).toMatchObject({ run_id: first.run_id, status: 'completed', result: first.result });
    });

    it('a replay of a failed run is still 200, with status failed', async () => {
      app.platform.crt.outcome = 'fail-provider';
      const key = uniqueKey();
      expect((await runCrt(app, { body: { input: { apex: 'example.net' } }, key })).status).toBe(502);
      const response = await runCrt(app, { body: { input: { apex: 'example.net' } }, key });
      expect(response.status).toBe(200);
      const body = CrtReplayRunResponse.parse(await response.json());
      expect(body.status).toBe('failed');
      expect(body.run?.error?.code).toBe('provider_unavailable');
    });

    it('422 from the orchestrator when a key is reused with a different request', async () => {
      const key = uniqueKey();
      expect((await runCrt(app, { body: { input: { apex: 'example.com' } }, key })).status).toBe(200);
      const response = await runCrt(app, { body: { input: { apex: 'example.com', limit: 5 } }, key });
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toMatch(
        new RegExp(
          `^Idempotency-Key "${key}" was already used with a different request \\(run [0-9a-f-]{36}\\)`,
        ),
      );
    });

    it('409 from the orchestrator when a quote_id was already used', async () => {
      const quoteId = randomUUID();
      expect(
        (await runCrt(app, { body: { input: { apex: 'example.com' }, quote_id: quoteId } })).status,
      ).toBe(200);
      const response = await runCrt(app, { body: { input: { apex: 'example.com' }, quote_id: quoteId } });
      expect(response.status).toBe(409);
      expect(await errorOf(response)).toBe(
        `quote_id ${quoteId} has already been used for a run; quote again or omit quote_id`,
      );
    });

    it('502 naming the providers when every provider failed', async () => {
      app.platform.crt.outcome = 'fail-provider';
      const response = await runCrt(app, { body: { input: { apex: 'example.com' } } });
      expect(response.status).toBe(502);
      const parts = /^run ([0-9a-f-]{36}) failed: (.*)$/.exec(await errorOf(response));
      expect(parts?.[2]).toBe(PROVIDER_FAILURE);
    });

    it('500 "run <id> failed: internal error" for any other failure', async () => {
      app.platform.crt.outcome = 'fail-internal';
      const response = await runCrt(app, { body: { input: { apex: 'example.com' } } });
      expect(response.status).toBe(500);
      expect(await errorOf(response)).toMatch(/^run [0-9a-f-]{36} failed: internal error$/);
    });

    it('500 "internal error" (and the reason in the log) when a stored result breaks the contract', async () => {
      // Unreachable with the real services: the orchestrator refuses a worker's result that breaks
      // the capability's schema (the run fails). The transport hands the gateway's first getRun a
      // stored record as another version could answer it: the real one, completed with a bad result.
      app.platform.crt.outcome = 'stay-queued';
      const orchestrator = app.platform.client('orchestrator');
      app.platform.rpc.replyNext(
        'orchestrator',
        {
          from: async (request) => {
            const { client_id, run_id } = z
              .object({ client_id: z.string(), run_id: z.string() })
              .parse(request);
            const stored = await orchestrator.getRun({ client_id, run_id });
            return { ...stored, status: 'completed', result: { status: 'completed', apex: 'example.com' } };
          },
        },
        'getRun',
      );
      const response = await runCrt(app, {
        body: { input: { apex: 'example.com' } },
        headers: { 'X-Request-Id': 'bad-result-1' },
      });
      expect(response.status).toBe(500);
      expect(await errorOf(response)).toBe('internal error');
      const line = await app.waitForLog((l) => l.request_id === 'bad-result-1');
      expect(JSON.stringify(line)).toMatch(/does not match its contract/);
    });

    it('503 with Retry-After when the orchestrator does not answer', async () => {
      app.platform.rpc.down('orchestrator');
      const response = await runCrt(app, { body: { input: { apex: 'example.com' } } });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      // The run may have been recorded before the answer was lost (issue 15): the client is told.
      expect(await errorOf(response)).toBe(
        'orchestrator service did not answer within 2000 ms; the run may have been recorded; this request had no Idempotency-Key, so send one to retry without starting a second run',
      );
      const keyed = await runCrt(app, {
        body: { input: { apex: 'example.com' } },
        headers: { 'Idempotency-Key': 'timeout-1' },
      });
      expect(keyed.status).toBe(503);
      expect(await errorOf(keyed)).toBe(
        'orchestrator service did not answer within 2000 ms; the run may have been recorded: retry with the same Idempotency-Key',
      );
    });

    it.each<[string, unknown, string | RegExp]>([
      [
        'a subdomain',
        { input: { apex: 'www.example.com' } },
        'input.apex: www.example.com is a subdomain; give its registrable domain example.com',
      ],
      [
        'an ICANN public suffix',
        { input: { apex: 'co.uk' } },
        /^input\.apex: co\.uk is a public suffix \(ICANN/,
      ],
      [
        'a PRIVATE public suffix',
        { input: { apex: 'github.io' } },
        /^input\.apex: github\.io is a public suffix \(PRIVATE/,
      ],
      [
        'an IP address',
        { input: { apex: '192.0.2.1' } },
        'input.apex: must be a domain name, not an IP address',
      ],
      ['non-ASCII', { input: { apex: 'bücher.de' } }, /^input\.apex: must be ASCII/],
      ['a missing input', { client_type: 'api' }, 'input: required'],
      ['a missing apex', { input: {} }, 'input.apex: required'],
      ['limit 0', { input: { apex: 'example.com', limit: 0 } }, 'input.limit: must be at least 1'],
      ['limit 1001', { input: { apex: 'example.com', limit: 1001 } }, 'input.limit: must be at most 1000'],
      [
        'a fractional limit',
        { input: { apex: 'example.com', limit: 1.5 } },
        /^input\.limit: must be an integer/,
      ],
      [
        'a string include_first_seen',
        { input: { apex: 'example.com', include_first_seen: 'yes' } },
        /^input\.include_first_seen: must be a boolean/,
      ],
      [
        'an unknown input property',
        { input: { apex: 'example.com', depth: 2 } },
        'input: unknown property "depth"',
      ],
      [
        'an unknown envelope property',
        { input: { apex: 'example.com' }, mode: 'fast' },
        'unknown property "mode"',
      ],
      [
        'a short client_type',
        { input: { apex: 'example.com' }, client_type: 'x' },
        /^client_type: must be at least 2/,
      ],
      [
        'a client_type with spaces',
        { input: { apex: 'example.com' }, client_type: 'my app' },
        /^client_type: must match/,
      ],
      [
        'a quote_id that is not a UUID',
        { input: { apex: 'example.com' }, quote_id: 'q-123' },
        'quote_id: must be a UUID',
      ],
      ['an array body', [{ input: { apex: 'example.com' } }], /^body: must be a JSON object/],
    ])('422 for %s, without asking the orchestrator', async (_why, body, message) => {
      const before = starts().length;
      const response = await runCrt(app, { body });
      expect(response.status).toBe(422);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const error = await errorOf(response);
      if (typeof message === 'string') expect(error).toBe(message);
      else expect(error).toMatch(message);
      expect(starts().length).toBe(before);
    });

    it('422 for a request without a body', async () => {
      const response = await runCrt(app, { headers: { 'Content-Type': 'text/plain' } });
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toMatch(/^body: must be a JSON object/);
    });

    it.each([
      ['too short', 'short'],
      ['too long', 'k'.repeat(191)],
      ['a space', 'has space-123'],
      ['a slash', 'abc/def-123'],
    ])('422 for an Idempotency-Key with %s', async (_why, key) => {
      const before = starts().length;
      const response = await runCrt(app, { body: { input: { apex: 'example.com' } }, key });
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toMatch(/^headers\.idempotency-key: must/);
      expect(starts().length).toBe(before);
    });

    it('accepts an Idempotency-Key of every allowed character at both length bounds', async () => {
      for (const key of [`A.b_:-${randomUUID().slice(0, 2)}`, `${randomUUID()}${'x'.repeat(154)}`]) {
        const response = await runCrt(app, { body: { input: { apex: 'example.com' } }, key });
        expect(response.status).toBe(200);
      }
    });

    it('400 for malformed JSON and 415 for a body that is not JSON', async () => {
      const malformed = await runCrt(app, { rawBody: '{"input": ' });
      expect(malformed.status).toBe(400);
      expect(await errorOf(malformed)).toBe('malformed JSON body');
      const text = await runCrt(app, {
        rawBody: 'apex=example.com',
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(text.status).toBe(415);
    });

    it('401 without a key and 403 without capabilities:run, before the body is looked at', async () => {
      const missing = await runCrt(app, { apiKey: '', rawBody: 'not json' });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="capability-service"');
      const forbidden = await runCrt(app, {
        apiKey: app.keys.plain,
        body: { input: { apex: 'example.com' } },
      });
      expect(forbidden.status).toBe(403);
      expect(await errorOf(forbidden)).toBe(
        'insufficient scope: this endpoint requires scope capabilities:run',
      );
    });

    it('405 with Allow for other methods; other slugs and another letter case are not crt runs', async () => {
      const get = await getRun(app, '/api/capabilities/crt/run');
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST, OPTIONS');
      await get.arrayBuffer();
      const crtStarts = starts().length;
      const post = (path: string) =>
        app.fetch(path, {
          method: 'POST',
          headers: { Authorization: `Bearer ${app.keys.runner}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ input: { apex: 'example.com' } }),
        });
      // Another slug is the generic run (spec §4.4): the orchestrator's startRun decides.
      const other = await post('/api/capabilities/other/run');
      expect(other.status).toBe(404);
      expect(await errorOf(other)).toBe('unknown capability: other');
      expect(runStarts().at(-1)).toMatchObject({ slug: 'other' });
      // Matching is case-sensitive: `CRT` is not a slug at all (422, no call).
      const runStartsBefore = runStarts().length;
      const upper = await post('/api/capabilities/CRT/run');
      expect(upper.status).toBe(422);
      expect(await errorOf(upper)).toMatch(/^slug: must be lowercase/);
      expect(runStarts().length).toBe(runStartsBefore);
      expect(starts().length).toBe(crtStarts);
    });
  });

  describe('a run that outlives the wait', () => {
    let slow: AppHarness;
    beforeAll(async () => {
      slow = await startAppHarness({ crtRunWaitMs: 50 });
    });
    afterAll(() => slow.close());
    beforeEach(() => {
      app.platform.crt.outcome = 'stay-queued';
    });

    it('202 RunStatusResponse with Location, then the run is polled to completion', async () => {
      const response = await runCrt(slow, { body: { input: { apex: 'example.com' } } });
      expect(response.status).toBe(202);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = RunStatusResponse.parse(await response.json());
      expect(body).toMatchObject({
        ok: true,
        status: 'queued',
        slug: 'crt',
        started_at: null,
        finished_at: null,
      });
      expect(body.result).toBeUndefined();
      const location = response.headers.get('location');
      expect(location).toBe(`/api/capability-runs/${body.run_id}`);

      const queued = await getRun(slow, location ?? '');
      expect(queued.status).toBe(200);
      expect(RunStatusResponse.parse(await queued.json()).status).toBe('queued');

      slow.platform.crt.finish(body.run_id, 'complete');
      // The worker claims the run and reports its result: a moment later the run reads completed.
      const done = await pollUntil(async () => {
        const polled = await getRun(slow, location ?? '');
        const status = RunStatusResponse.safeParse(await polled.clone().json()).data?.status;
        return polled.status === 200 && status === 'completed' ? polled : undefined;
      });
      expect(done.status).toBe(200);
      expect(done.headers.get('cache-control')).toBe('no-store');
      const finished = RunStatusResponse.parse(await done.json());
      expect(finished).toMatchObject({ run_id: body.run_id, status: 'completed' });
      expect(finished.result).toMatchObject({ apex: 'example.com', status: 'completed' });
      expect(slow.waiter.size).toBe(0);
    });

    it('releases the waiter when the client goes away', async () => {
      const patient = await startAppHarness({ crtRunWaitMs: 600_000 });
      try {
        patient.platform.crt.outcome = 'stay-queued';
        const controller = new AbortController();
        const request = patient.fetch('/api/capabilities/crt/run', {
          method: 'POST',
          headers: { Authorization: `Bearer ${patient.keys.runner}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ input: { apex: 'example.com' } }),
          signal: controller.signal,
        });
        await pollUntil(() => patient.waiter.size === 1);
        controller.abort();
        await expect(request).rejects.toThrow();
        await pollUntil(() => patient.waiter.size === 0);
      } finally {
        await patient.close();
      }
    });
  });
});
