import { randomUUID } from 'node:crypto';
import { CrtCompletedRunResponse, CrtReplayRunResponse, type Quote, RunStatusResponse } from '@svc/contracts';
import { exampleComExpectedObservations, type TestApiKey } from '@svc/testkit';
import { z } from 'zod';
import { quoteOk } from './quote-first/support';
import {
  asInstants,
  type CrtStack,
  errorBody,
  getRun,
  keysOf,
  postCrtRun,
  startCrtStack,
} from './support/crt-e2e';

/**
 * The crt capability end to end over HTTP (issue 3): gateway → orchestrator → worker → fake
 * crt.sh on loopback → run stored in PostgreSQL. The per-apex cache is off here, so every new run
 * is one provider request and the call counts say exactly how many runs did provider work.
 */

const DISCLOSURE =
  'Certificate-transparency observations list hostnames that appeared in publicly logged TLS certificates. They do not prove that a host exists in DNS, is live, or is reachable, and they may include retired names.';

function expectZeroPriceQuote(quote: Quote, runId: string): void {
  expect(quote.quote_id).toBe(runId);
  expect(quote.slug).toBe('crt');
  expect(Number(quote.price_usd)).toBe(0);
  expect(quote.currency).toBe('USD');
  expect(quote.wallet_clearance.cleared).toBe(true);
  expect(Date.parse(quote.expires_at)).toBeGreaterThan(Date.parse(quote.created_at));
}

describe('crt run, end to end', () => {
  let crt: CrtStack;
  let runner: TestApiKey;
  let other: TestApiKey;

  beforeAll(async () => {
    crt = await startCrtStack({ CRT_CACHE_TTL_MS: '0' });
    runner = await crt.stack.createApiKey({ scopes: ['capabilities:run', 'capabilities:quote'] });
    other = await crt.stack.createApiKey({ scopes: ['capabilities:run', 'capabilities:quote'] });
  }, 120_000);
  afterEach(() => crt.fake.reset());
  afterAll(() => crt?.close());

  it('completes a run with exactly the spec’s fields, a zero-price quote and the observation rules applied', async () => {
    // Spec §4 rule 3: quoted just before the run; the quote_id becomes the run id (§2.3).
    const { quote_id: quoteId } = await quoteOk(crt.stack, runner.apiKey, 'crt', {
      apex: 'example.com',
      include_first_seen: true,
    });
    const result = await postCrtRun(
      crt.stack,
      { input: { apex: 'example.com', include_first_seen: true }, quote_id: quoteId },
      { apiKey: runner.apiKey },
    );
    expect(result.status).toBe(200);
    expect(result.headers.get('idempotent-replayed')).toBeNull();
    expect(keysOf(result.json)).toEqual(['ok', 'quote', 'result', 'run_id', 'status']);
    const body = CrtCompletedRunResponse.parse(result.json);
    expect(body.run_id).toBe(quoteId); // spec §2.3: a supplied quote_id becomes the run id
    expect(body.status).toBe('completed');
    expectZeroPriceQuote(body.quote, quoteId);

    const expected = exampleComExpectedObservations()['crt.sh'];
    expect(keysOf(body.result)).toEqual(
      [
        'apex',
        'count',
        'disclosure',
        'include_first_seen',
        'limit',
        'live_hosts_verified',
        'observations',
        'provider',
        'status',
        'summary',
      ].sort(),
    );
    expect(body.result).toMatchObject({
      status: 'completed',
      apex: 'example.com',
      count: expected.length,
      limit: 100,
      include_first_seen: true,
      provider: 'crt.sh',
      live_hosts_verified: false,
      disclosure: DISCLOSURE,
      summary: `Found ${expected.length} distinct hostnames for example.com in certificate-transparency logs (crt.sh); returning ${expected.length} (limit 100).`,
    });
    expect(asInstants(body.result.observations)).toEqual(asInstants(expected));
    for (const observation of body.result.observations) {
      expect(observation.first_seen).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    expect(crt.fake.calls('crt.sh', 'example.com')).toBe(1);
    expect(crt.fake.calls('certspotter')).toBe(0);

    // The stored run: visible at GET /api/capability-runs/{id}, with the same result …
    const status = await getRun(crt.stack, runner.apiKey, quoteId);
    expect(status.status).toBe(200);
    expect(status.headers.get('cache-control')).toBe('no-store');
    const run = RunStatusResponse.parse(status.json);
    expect(run).toMatchObject({
      ok: true,
      run_id: quoteId,
      status: 'completed',
      slug: 'crt',
      client_type: 'api',
    });
    expect(run.quote_id).toBe(quoteId);
    expect(run.result).toEqual(body.result);
    expect(run).not.toHaveProperty('error');
    expect(run.started_at).not.toBeNull();
    expect(run.finished_at).not.toBeNull();
    expect(Date.parse(run.finished_at ?? '')).toBeGreaterThanOrEqual(Date.parse(run.started_at ?? ''));
    // … and in PostgreSQL with the apex and the returned observations (spec §1.7: no expiry).
    const row = await crt.prisma.run.findUniqueOrThrow({
      where: { clientId_publicId: { clientId: runner.clientId, publicId: quoteId } },
    });
    expect(row.clientId).toBe(runner.clientId);
    expect(row.input).toMatchObject({ apex: 'example.com', include_first_seen: true, limit: 100 });
    expect(row.result).toEqual(body.result);
  });

  it('applies limit and leaves first_seen out by default; the apex is lowercased; without quote_id the run still has its own quote', async () => {
    const result = await postCrtRun(
      crt.stack,
      { input: { apex: 'ExAmple.COM', limit: 3 }, client_type: 'claude-code_1' },
      { apiKey: runner.apiKey },
    );
    expect(result.status).toBe(200);
    const body = CrtCompletedRunResponse.parse(result.json);
    expectZeroPriceQuote(body.quote, body.run_id);
    const expected = exampleComExpectedObservations()['crt.sh'];
    expect(body.result.apex).toBe('example.com');
    expect(body.result.observations).toEqual(expected.slice(0, 3).map(({ hostname }) => ({ hostname })));
    expect(body.result).toMatchObject({ count: 3, limit: 3, include_first_seen: false });
    expect(body.result.summary).toBe(
      `Found ${expected.length} distinct hostnames for example.com in certificate-transparency logs (crt.sh); returning 3 (limit 3).`,
    );
    const run = RunStatusResponse.parse((await getRun(crt.stack, runner.apiKey, body.run_id)).json);
    expect(run.client_type).toBe('claude-code_1');
    expect(run.quote_id).toBe(body.run_id);
  });

  it('returns sorted, distinct, lowercase hostnames under the apex for a realistic generated answer', async () => {
    const result = await postCrtRun(
      crt.stack,
      { input: { apex: 'acme-widgets.io', limit: 1000 } },
      { apiKey: runner.apiKey },
    );
    expect(result.status).toBe(200);
    const { result: crtResult } = CrtCompletedRunResponse.parse(result.json);
    const hostnames = crtResult.observations.map((observation) => observation.hostname);
    expect(hostnames.length).toBeGreaterThan(10);
    expect(crtResult.count).toBe(hostnames.length);
    expect([...hostnames].sort()).toEqual(hostnames);
    expect(new Set(hostnames).size).toBe(hostnames.length);
    for (const hostname of hostnames) {
      expect(hostname).toMatch(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*acme-widgets\.io$/);
    }
  });

  describe('authentication and ownership', () => {
    it('401 without a key, 403 without capabilities:run, and nothing runs', async () => {
      const anonymous = await postCrtRun(crt.stack, { input: { apex: 'example.com' } });
      expect(anonymous.status).toBe(401);
      errorBody(anonymous);
      const reader = await crt.stack.createApiKey({ scopes: ['capabilities:read', 'capabilities:quote'] });
      const forbidden = await postCrtRun(
        crt.stack,
        { input: { apex: 'example.com' } },
        { apiKey: reader.apiKey },
      );
      expect(forbidden.status).toBe(403);
      expect(errorBody(forbidden)).toContain('capabilities:run');
      const status = await crt.stack.fetch(`/api/capability-runs/${randomUUID()}`, { apiKey: reader.apiKey });
      expect(status.status).toBe(403);
      expect((await crt.stack.fetch(`/api/capability-runs/${randomUUID()}`)).status).toBe(401);
      expect(crt.fake.calls('crt.sh')).toBe(0);
      expect(await crt.prisma.run.count({ where: { clientId: reader.clientId } })).toBe(0);
    });

    it('shows a run only to its owner: another client gets the same 404 as for a run that does not exist', async () => {
      const created = CrtCompletedRunResponse.parse(
        (await postCrtRun(crt.stack, { input: { apex: 'example.com', limit: 1 } }, { apiKey: runner.apiKey }))
          .json,
      );
      const foreign = await getRun(crt.stack, other.apiKey, created.run_id);
      const missingId = randomUUID();
      const missing = await getRun(crt.stack, other.apiKey, missingId);
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(errorBody(foreign)).toBe(`unknown run: ${created.run_id}`);
      expect(errorBody(missing)).toBe(`unknown run: ${missingId}`);
      expect(foreign.text.replace(created.run_id, '<id>')).toBe(missing.text.replace(missingId, '<id>'));
      expect((await getRun(crt.stack, runner.apiKey, created.run_id)).status).toBe(200);
    });

    it('422 for a malformed run id', async () => {
      const result = await getRun(crt.stack, runner.apiKey, 'not-a-uuid');
      expect(result.status).toBe(422);
      expect(errorBody(result)).toMatch(/^run_id: /);
    });
  });

  describe('idempotency', () => {
    it('replays the original run for the same key and request, without a provider call', async () => {
      const key = `replay-${randomUUID()}`;
      const request = { input: { apex: 'Example.com', limit: 5, include_first_seen: true } };
      const first = await postCrtRun(crt.stack, request, { apiKey: runner.apiKey, idempotencyKey: key });
      expect(first.status).toBe(200);
      const original = CrtCompletedRunResponse.parse(first.json);
      expect(crt.fake.calls('crt.sh')).toBe(1);

      // The same request with its defaults spelled out and another apex case is the same request.
      const same = { input: { apex: 'example.com', limit: 5, include_first_seen: true }, client_type: 'api' };
      const replay = await postCrtRun(crt.stack, same, { apiKey: runner.apiKey, idempotencyKey: key });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(keysOf(replay.json)).toEqual([
        'idempotent_replay',
        'message',
        'ok',
        'quote',
        'run',
        'run_id',
        'status',
      ]);
      const body = CrtReplayRunResponse.parse(replay.json);
      expect(body).toMatchObject({
        ok: true,
        run_id: original.run_id,
        status: 'completed',
        idempotent_replay: true,
      });
      expect(body.quote).toEqual(original.quote);
      expect(body.run?.result).toEqual(original.result);
      const stored = RunStatusResponse.parse((await getRun(crt.stack, runner.apiKey, original.run_id)).json);
      const { ok: _ok, ...record } = stored;
      expect(body.run).toEqual(record);
      expect(body.message).toBe(
        `replay of run ${original.run_id} (Idempotency-Key "${key}"): no new work was done`,
      );
      expect(crt.fake.calls('crt.sh')).toBe(1);

      // The same key with a different request is refused (docs/decisions.md): no run, no provider call.
      const changed = await postCrtRun(
        crt.stack,
        { input: { apex: 'example.com', limit: 6, include_first_seen: true } },
        { apiKey: runner.apiKey, idempotencyKey: key },
      );
      expect(changed.status).toBe(422);
      expect(errorBody(changed)).toBe(
        `Idempotency-Key "${key}" was already used with a different request (run ${original.run_id}); send a new key for a new request`,
      );
      expect(crt.fake.calls('crt.sh')).toBe(1);
      expect(await crt.prisma.run.count({ where: { idempotencyKey: key } })).toBe(1);

      // Keys are scoped to the client: another client's same key is a new run.
      const foreign = await postCrtRun(crt.stack, request, { apiKey: other.apiKey, idempotencyKey: key });
      expect(foreign.status).toBe(200);
      expect(foreign.headers.get('idempotent-replayed')).toBeNull();
      expect(CrtCompletedRunResponse.parse(foreign.json).run_id).not.toBe(original.run_id);
      expect(crt.fake.calls('crt.sh')).toBe(2);
    });

    it('gives ten concurrent identical requests with one key one run and one provider call', async () => {
      const key = `burst-${randomUUID()}`;
      const request = { input: { apex: 'burst-test.dev', limit: 10 } };
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          postCrtRun(crt.stack, request, { apiKey: runner.apiKey, idempotencyKey: key }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      const runIds = new Set(
        answers.map((answer) => z.object({ run_id: z.string() }).parse(answer.json).run_id),
      );
      expect(runIds.size).toBe(1);
      const fresh = answers.filter((answer) => answer.headers.get('idempotent-replayed') === null);
      expect(fresh).toHaveLength(1);
      CrtCompletedRunResponse.parse(fresh[0]?.json);
      for (const answer of answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')) {
        expect(CrtReplayRunResponse.parse(answer.json).idempotent_replay).toBe(true);
      }
      expect(crt.fake.calls('crt.sh', 'burst-test.dev')).toBe(1);
      expect(await crt.prisma.run.count({ where: { idempotencyKey: key } })).toBe(1);
    });

    it('409 to its owner for a quote_id that already named a run', async () => {
      const { quote_id: quoteId } = await quoteOk(crt.stack, runner.apiKey, 'crt', { apex: 'example.com' });
      const first = await postCrtRun(
        crt.stack,
        { input: { apex: 'example.com' }, quote_id: quoteId },
        { apiKey: runner.apiKey },
      );
      expect(first.status).toBe(200);
      const again = await postCrtRun(
        crt.stack,
        { input: { apex: 'example.com' }, quote_id: quoteId },
        { apiKey: runner.apiKey },
      );
      expect(again.status).toBe(409);
      expect(errorBody(again)).toBe(
        `quote_id ${quoteId} has already been used for a run; quote again or omit quote_id`,
      );
      expect(crt.fake.calls('crt.sh')).toBe(1);
      expect(await crt.prisma.run.count({ where: { publicId: quoteId } })).toBe(1);
    });

    it('takes any fresh UUID as the run id for each of two clients; neither can tell from any answer whether the other used it (decisions C16)', async () => {
      const [alice, bob] = await Promise.all(
        [0, 1].map(() =>
          crt.stack.createApiKey({
            scopes: ['capabilities:run', 'capabilities:quote', 'billing:read', 'artifacts:read'],
          }),
        ),
      );
      if (alice === undefined || bob === undefined) throw new Error('no keys');
      /** Everything a client can read about the run it named `runId`, with the parts that differ per run masked. */
      const everything = async (key: TestApiKey, runId: string, apex: string) => {
        const run = await postCrtRun(crt.stack, { input: { apex }, quote_id: runId }, { apiKey: key.apiKey });
        const reads = await Promise.all(
          ['', '/receipt', '/artifacts'].map((tail) =>
            crt.stack.fetch(`/api/capability-runs/${runId}${tail}`, { apiKey: key.apiKey }),
          ),
        );
        const again = await postCrtRun(
          crt.stack,
          { input: { apex }, quote_id: runId },
          { apiKey: key.apiKey },
        );
        const cancel = await crt.stack.fetch(`/api/capability-runs/${runId}/cancel`, {
          method: 'POST',
          apiKey: key.apiKey,
        });
        return [run, ...reads, again, cancel].map((answer) => ({
          status: answer.status,
          body: JSON.parse(
            answer.text.replaceAll(runId, '<run id>').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>'),
          ) as unknown,
        }));
      };
      const shared = randomUUID();
      const neverUsed = randomUUID();
      // Alice names her run with the UUID first; Bob then uses the same UUID, and one nobody used.
      const aliceSaw = await everything(alice, shared, 'example.com');
      const bobShared = await everything(bob, shared, 'example.com');
      const bobFresh = await everything(bob, neverUsed, 'example.com');
      expect(bobShared).toEqual(bobFresh);
      // And Alice saw exactly what Bob saw: a fresh run under her id, then her own run only.
      expect(aliceSaw).toEqual(bobFresh);
      expect(aliceSaw.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 409, 409]);
      expect(aliceSaw[0]?.body).toMatchObject({ ok: true, run_id: '<run id>', status: 'completed' });
      expect(aliceSaw[4]?.body).toEqual({
        ok: false,
        error: 'quote_id <run id> has already been used for a run; quote again or omit quote_id',
      });
      // Two runs under one id, one per client, each with its own internal id.
      const rows = await crt.prisma.run.findMany({ where: { publicId: shared } });
      expect(rows.map((row) => row.clientId).sort()).toEqual([alice.clientId, bob.clientId].sort());
      expect(rows.every((row) => row.id !== shared)).toBe(true);
    });

    it("takes another client's quote_id, run or not, as a run id of its own; the owner's unused quote still runs", async () => {
      const input = { apex: 'example.com' };
      const used = (await quoteOk(crt.stack, runner.apiKey, 'crt', input)).quote_id;
      expect((await postCrtRun(crt.stack, { input, quote_id: used }, { apiKey: runner.apiKey })).status).toBe(
        200,
      );
      const unused = (await quoteOk(crt.stack, runner.apiKey, 'crt', input)).quote_id;
      for (const quoteId of [used, unused, randomUUID()]) {
        const answer = await postCrtRun(crt.stack, { input, quote_id: quoteId }, { apiKey: other.apiKey });
        expect(answer.status).toBe(200);
        const body = CrtCompletedRunResponse.parse(answer.json);
        expect(body.run_id).toBe(quoteId);
        expectZeroPriceQuote(body.quote, quoteId);
      }
      const owners = await postCrtRun(crt.stack, { input, quote_id: unused }, { apiKey: runner.apiKey });
      expect(owners.status).toBe(200);
      expect(CrtCompletedRunResponse.parse(owners.json).run_id).toBe(unused);
    });

    it('answers the rest of the quote_id table (decisions C16): own quote, expired, another input, malformed', async () => {
      const input = { apex: 'example.com' };
      // The caller's own crt quote: checked by the wallet, then the run id (its stored quote returned).
      const quote = await quoteOk(crt.stack, runner.apiKey, 'crt', input);
      const own = await postCrtRun(crt.stack, { input, quote_id: quote.quote_id }, { apiKey: runner.apiKey });
      expect(own.status).toBe(200);
      expect(CrtCompletedRunResponse.parse(own.json).quote).toMatchObject({
        quote_id: quote.quote_id,
        created_at: quote.created_at,
        expires_at: quote.expires_at,
      });
      // The same id again with another input: the 409 of an id already used, not a new run.
      const other = await postCrtRun(
        crt.stack,
        { input: { apex: 'example.org' }, quote_id: quote.quote_id },
        { apiKey: runner.apiKey },
      );
      expect(other.status).toBe(409);
      expect(errorBody(other)).toBe(
        `quote_id ${quote.quote_id} has already been used for a run; quote again or omit quote_id`,
      );
      // The caller's own quote for another input, and an expired one: the wallet's words.
      const forOther = await quoteOk(crt.stack, runner.apiKey, 'crt', { apex: 'example.org' });
      const mismatch = await postCrtRun(
        crt.stack,
        { input, quote_id: forOther.quote_id },
        { apiKey: runner.apiKey },
      );
      expect(mismatch.status).toBe(422);
      expect(errorBody(mismatch)).toBe(
        `quote_id ${forOther.quote_id} was issued for a different input; quote this input again`,
      );
      const stale = await quoteOk(crt.stack, runner.apiKey, 'crt', input);
      const expiredAt = new Date(Date.now() - 60_000);
      await crt.prisma.quote.update({ where: { id: stale.quote_id }, data: { expiresAt: expiredAt } });
      const expired = await postCrtRun(
        crt.stack,
        { input, quote_id: stale.quote_id },
        { apiKey: runner.apiKey },
      );
      expect(expired.status).toBe(409);
      expect(errorBody(expired)).toBe(
        `quote_id ${stale.quote_id} expired at ${expiredAt.toISOString()}; quote again`,
      );
      // Not a UUID: 422 naming the field.
      const malformed = await postCrtRun(
        crt.stack,
        { input, quote_id: 'not-a-uuid' },
        { apiKey: runner.apiKey },
      );
      expect(malformed.status).toBe(422);
      expect(errorBody(malformed)).toMatch(/^quote_id: /);
      expect(crt.fake.calls('crt.sh')).toBe(1);
    });
  });
});
