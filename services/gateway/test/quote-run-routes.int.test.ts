import { randomUUID } from 'node:crypto';
import { QuoteResponse, RunStartResponse } from '@svc/contracts';
import { PaymentRequiredError } from '@svc/errors';
import { type AppHarness, CLIENT_ID, startAppHarness } from './support/app-harness';
import { errorOf, post, type RunCall, uniqueKey } from './support/run-requests';

/**
 * POST /api/capabilities/{slug}/quote and /run through the app factory and the real orchestrator,
 * registry and wallet handlers (in process, test/support/platform-services.ts): what the gateway
 * checks itself (auth, envelope, header, slug shape), what it passes to the orchestrator, and how it
 * answers. The path across processes is in test/quote-first/*.int.test.ts.
 */

const PII_INPUT = { text: 'Mail jane@example.com' };

describe('quote and run routes (real orchestrator handlers)', () => {
  let app: AppHarness;
  const quote = (slug: string, call: RunCall) =>
    post(app, `/api/capabilities/${slug}/quote`, { apiKey: app.keys.payer, ...call });
  const run = (slug: string, call: RunCall) =>
    post(app, `/api/capabilities/${slug}/run`, { apiKey: app.keys.payer, ...call });
  /** A fresh pii-redact quote of the payer. */
  const quoted = async (input: object = PII_INPUT) =>
    QuoteResponse.parse(await (await quote('pii-redact', { body: { input } })).json()).quote;

  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  beforeEach(() => app.platform.rpc.clearFaults());

  describe('POST /api/capabilities/{slug}/quote', () => {
    it('200 QuoteResponse, no-store, for the parsed request of the calling client', async () => {
      const response = await quote('pii-redact', { body: { input: PII_INPUT, client_type: 'cli_v2' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = QuoteResponse.parse(await response.json());
      expect(body.quote).toMatchObject({ slug: 'pii-redact', price_usd: '0.002', currency: 'USD' });
      expect(app.requests('orchestrator', 'quote').at(-1)).toEqual({
        client_id: CLIENT_ID,
        slug: 'pii-redact',
        input: PII_INPUT,
        client_type: 'cli_v2',
      });
    });

    it('defaults input to {} and client_type to api (spec §4.3: input may be empty)', async () => {
      // The gateway sends the defaults; crt-batch-plan itself needs apexes (the orchestrator's 422).
      const response = await quote('crt-batch-plan', { body: {} });
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toBe('input.apexes: required');
      expect(app.requests('orchestrator', 'quote').at(-1)).toEqual({
        client_id: CLIENT_ID,
        slug: 'crt-batch-plan',
        input: {},
        client_type: 'api',
      });
    });

    it.each<[string, string, object, number, string]>([
      ['an unknown slug', 'no-such-thing', { input: {} }, 404, 'unknown capability: no-such-thing'],
      [
        'a describe_only capability',
        'whois',
        { input: { domain: 'example.com' } },
        409,
        'capability whois cannot be quoted or run: its execution mode is describe_only (spec §2.1)',
      ],
      ['input the capability refuses', 'pii-redact', { input: {} }, 422, 'input.text: required'],
    ])('passes the orchestrator answer through for %s', async (_why, slug, body, status, message) => {
      const response = await quote(slug, { body });
      expect(response.status).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await errorOf(response)).toBe(message);
    });

    it.each<[string, string, unknown, string | RegExp]>([
      ['a slug with capitals', 'Pii-Redact', { input: {} }, /^slug: must be lowercase/],
      ['a slug with an underscore', 'pii_redact', { input: {} }, /^slug: must be lowercase/],
      [
        'an unknown envelope property',
        'pii-redact',
        { input: {}, quote_id: randomUUID() },
        'unknown property "quote_id"',
      ],
      ['input that is not an object', 'pii-redact', { input: 'text' }, /^input: /],
      ['a bad client_type', 'pii-redact', { input: {}, client_type: 'my app' }, /^client_type: must match/],
      ['an array body', 'pii-redact', [{ input: {} }], 'body: must be a JSON object (QuoteRequest)'],
    ])('422 for %s, without asking the orchestrator', async (_why, slug, body, message) => {
      const calls = app.requests('orchestrator', 'quote').length;
      const response = await quote(slug, { body });
      expect(response.status).toBe(422);
      const error = await errorOf(response);
      if (typeof message === 'string') expect(error).toBe(message);
      else expect(error).toMatch(message);
      expect(app.requests('orchestrator', 'quote').length).toBe(calls);
    });

    it('422 without a body, 400 for malformed JSON, 415 for text', async () => {
      const none = await quote('pii-redact', { headers: { 'Content-Type': 'text/plain' } });
      expect(none.status).toBe(422);
      expect(await errorOf(none)).toBe('body: must be a JSON object (QuoteRequest)');
      const malformed = await quote('pii-redact', { rawBody: '{"input": ' });
      expect(malformed.status).toBe(400);
      await malformed.arrayBuffer();
      const text = await quote('pii-redact', {
        rawBody: 'text=x',
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(text.status).toBe(415);
      await text.arrayBuffer();
    });

    it('401 without a key and 403 without capabilities:quote, before the body is read', async () => {
      const calls = app.requests('orchestrator', 'quote').length;
      const missing = await quote('pii-redact', { apiKey: '', rawBody: 'not json' });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="capability-service"');
      // Private even when refused: the no-store comes before the key check.
      expect(missing.headers.get('cache-control')).toBe('no-store');
      await missing.arrayBuffer();
      for (const apiKey of [app.keys.runner, app.keys.billing]) {
        const forbidden = await quote('pii-redact', { apiKey, rawBody: 'not json' });
        expect(forbidden.status).toBe(403);
        expect(await errorOf(forbidden)).toBe(
          'insufficient scope: this endpoint requires scope capabilities:quote',
        );
      }
      expect(
        (await quote('pii-redact', { apiKey: app.keys.quoter, body: { input: PII_INPUT } })).status,
      ).toBe(200);
      expect(app.requests('orchestrator', 'quote').length).toBe(calls + 1);
    });

    it('503 with Retry-After when the orchestrator does not answer; 405 for GET', async () => {
      app.platform.rpc.down('orchestrator');
      const down = await quote('pii-redact', { body: { input: PII_INPUT } });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('2');
      await down.arrayBuffer();
      const get = await app.fetch('/api/capabilities/pii-redact/quote');
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST, OPTIONS');
      await get.arrayBuffer();
    });
  });

  describe('POST /api/capabilities/{slug}/run', () => {
    it('202 RunStartResponse with Location for a queued run; quote_id and key passed through', async () => {
      const q = await quoted();
      const key = uniqueKey();
      const response = await run('pii-redact', { body: { input: PII_INPUT, quote_id: q.quote_id }, key });
      expect(response.status).toBe(202);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('location')).toBe(`/api/capability-runs/${q.quote_id}`);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      const body = RunStartResponse.parse(await response.json());
      expect(Object.keys(body).sort()).toEqual([
        'idempotent_replay',
        'ok',
        'quote',
        'run',
        'run_id',
        'status',
      ]);
      expect(body).toMatchObject({
        ok: true,
        run_id: q.quote_id,
        status: 'queued',
        idempotent_replay: false,
      });
      expect(body.quote?.quote_id).toBe(q.quote_id);
      expect(body.run).toMatchObject({ run_id: q.quote_id, price_usd: '0.002', status: 'queued' });
      expect(app.requests('orchestrator', 'startRun').at(-1)).toEqual({
        client_id: CLIENT_ID,
        slug: 'pii-redact',
        input: PII_INPUT,
        quote_id: q.quote_id,
        client_type: 'api',
        idempotency_key: key,
      });
    });

    it('replays the same key and request: 200, Idempotent-Replayed, the original run', async () => {
      const q = await quoted();
      const key = uniqueKey();
      const call = { body: { input: PII_INPUT, quote_id: q.quote_id }, key };
      expect((await run('pii-redact', call)).status).toBe(202);
      const replay = await run('pii-redact', call);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('location')).toBeNull();
      expect(RunStartResponse.parse(await replay.json())).toMatchObject({
        run_id: q.quote_id,
        status: 'queued',
        idempotent_replay: true,
      });
      const changed = await run('pii-redact', {
        ...call,
        body: { input: { text: 'other' }, quote_id: q.quote_id },
      });
      expect(changed.status).toBe(422);
      expect(await errorOf(changed)).toContain(
        `Idempotency-Key "${key}" was already used with a different request`,
      );
    });

    it('200 without Location for a run finished at creation (plan_only), no key or quote needed', async () => {
      const response = await run('crt-batch-plan', { body: { input: { apexes: ['example.com'] } } });
      expect(response.status).toBe(200);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      const body = RunStartResponse.parse(await response.json());
      expect(body).toMatchObject({ status: 'completed', idempotent_replay: false });
      expect(body.run.result).toMatchObject({ server_processing: false, counts: { planned: 1 } });
      expect(app.requests('orchestrator', 'startRun').at(-1)).not.toHaveProperty('idempotency_key');
      expect(app.requests('orchestrator', 'startRun').at(-1)).not.toHaveProperty('quote_id');
    });

    it('passes the quote and wallet refusals through: 422, 404, 409, 402', async () => {
      const noKey = await run('pii-redact', {
        body: { input: PII_INPUT, quote_id: (await quoted()).quote_id },
      });
      expect(noKey.status).toBe(422);
      expect(await errorOf(noKey)).toBe(
        'Idempotency-Key header is required for paid capabilities (price 0.002 USD)',
      );
      const noQuote = await run('pii-redact', { body: { input: PII_INPUT }, key: uniqueKey() });
      expect(noQuote.status).toBe(422);
      expect(await errorOf(noQuote)).toMatch(/^quote_id is required for paid capabilities/);
      const unknownId = randomUUID();
      const unknown = await run('pii-redact', {
        body: { input: PII_INPUT, quote_id: unknownId },
        key: uniqueKey(),
      });
      expect(unknown.status).toBe(404);
      expect(await errorOf(unknown)).toBe(`unknown quote_id: ${unknownId}`);
      const q = await quoted();
      expect(
        (await run('pii-redact', { body: { input: PII_INPUT, quote_id: q.quote_id }, key: uniqueKey() }))
          .status,
      ).toBe(202);
      const used = await run('pii-redact', {
        body: { input: PII_INPUT, quote_id: q.quote_id },
        key: uniqueKey(),
      });
      expect(used.status).toBe(409);
      expect(await errorOf(used)).toContain('has already been used for a run');
      const whois = await run('whois', { body: { input: { domain: 'example.com' } }, key: uniqueKey() });
      expect(whois.status).toBe(409);
      await whois.arrayBuffer();

      const wallet =
        'insufficient balance: the price 0.004 USD exceeds the 0.001 USD available (balance 0.003 USD, 0.002 USD held)';
      const poor = await quoted();
      // The wallet refuses the hold; the orchestrator passes its 402 through.
      app.platform.rpc.failNext('wallet', new PaymentRequiredError(wallet), 'holdForRun');
      const stopped = await run('pii-redact', {
        body: { input: PII_INPUT, quote_id: poor.quote_id },
        key: uniqueKey(),
      });
      expect(stopped.status).toBe(402);
      expect(stopped.headers.get('cache-control')).toBe('no-store');
      expect(await errorOf(stopped)).toBe(wallet);
    });

    it.each<[string, string, RunCall, string | RegExp]>([
      [
        'a malformed Idempotency-Key',
        'pii-redact',
        { body: { input: PII_INPUT }, key: 'short' },
        /^headers\.idempotency-key: /,
      ],
      ['a slug with capitals', 'PII-redact', { body: { input: PII_INPUT } }, /^slug: /],
      [
        'a quote_id that is not a UUID',
        'pii-redact',
        { body: { input: PII_INPUT, quote_id: 'q-1' } },
        'quote_id: must be a UUID',
      ],
      [
        'an unknown envelope property',
        'pii-redact',
        { body: { input: PII_INPUT, mode: 'fast' } },
        'unknown property "mode"',
      ],
      ['an array body', 'pii-redact', { body: [] }, 'body: must be a JSON object (RunRequest)'],
    ])('422 for %s, without asking the orchestrator', async (_why, slug, call, message) => {
      const calls = app.requests('orchestrator', 'startRun').length;
      const response = await run(slug, call);
      expect(response.status).toBe(422);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const error = await errorOf(response);
      if (typeof message === 'string') expect(error).toBe(message);
      else expect(error).toMatch(message);
      expect(app.requests('orchestrator', 'startRun').length).toBe(calls);
    });

    it('401 without a key and 403 without capabilities:run, before the body is read', async () => {
      const calls = app.requests('orchestrator', 'startRun').length;
      const missing = await run('pii-redact', { apiKey: '', rawBody: 'not json' });
      expect(missing.status).toBe(401);
      await missing.arrayBuffer();
      const forbidden = await run('pii-redact', { apiKey: app.keys.quoter, rawBody: 'not json' });
      expect(forbidden.status).toBe(403);
      expect(await errorOf(forbidden)).toBe(
        'insufficient scope: this endpoint requires scope capabilities:run',
      );
      expect(app.requests('orchestrator', 'startRun').length).toBe(calls);
    });

    it('503 with Retry-After when the orchestrator does not answer', async () => {
      app.platform.rpc.down('orchestrator');
      const response = await run('crt-batch-plan', { body: { input: { apexes: ['example.com'] } } });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      // The run may have been recorded before the answer was lost (issue 15): the client is told.
      expect(await errorOf(response)).toBe(
        'orchestrator service did not answer within 2000 ms; the run may have been recorded; this request had no Idempotency-Key, so send one to retry without starting a second run',
      );
    });
  });
});
