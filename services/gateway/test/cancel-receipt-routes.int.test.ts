import { randomUUID } from 'node:crypto';
import { QuoteResponse, RunReceiptResponse, RunStartResponse, RunStatusResponse } from '@svc/contracts';
import { PII_RESULT_OF_X } from '@svc/test-platform';
import { pollUntil } from '@svc/testkit';
import { type AppHarness, CLIENT_ID, OTHER_CLIENT_ID, startAppHarness } from './support/app-harness';
import { errorOf, getRun, post, uniqueKey } from './support/run-requests';

/**
 * POST /api/capability-runs/{run_id}/cancel and GET /api/capability-runs/{run_id}/receipt through
 * the app factory and the real orchestrator and wallet handlers: status codes by cancel outcome,
 * owner-only reads, scopes, and what never reaches the orchestrator.
 */

describe('cancel and receipt routes (real orchestrator handlers)', () => {
  let app: AppHarness;
  const cancel = (runId: string, apiKey = app.keys.runner, rawBody?: string) =>
    post(app, `/api/capability-runs/${runId}/cancel`, {
      apiKey,
      ...(rawBody === undefined ? {} : { rawBody }),
    });
  const receipt = (runId: string, apiKey = app.keys.billing) =>
    getRun(app, `/api/capability-runs/${runId}/receipt`, apiKey);

  /** A queued paid pii-redact run of the harness's client, started through the routes. */
  async function queuedRun(): Promise<string> {
    const quoted = await post(app, '/api/capabilities/pii-redact/quote', {
      apiKey: app.keys.payer,
      body: { input: { text: 'x' } },
    });
    const { quote } = QuoteResponse.parse(await quoted.json());
    const started = await post(app, '/api/capabilities/pii-redact/run', {
      apiKey: app.keys.payer,
      body: { input: { text: 'x' }, quote_id: quote.quote_id },
      key: uniqueKey(),
    });
    expect(started.status).toBe(202);
    return RunStartResponse.parse(await started.json()).run_id;
  }

  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  beforeEach(() => app.platform.rpc.clearFaults());

  describe('POST /api/capability-runs/{run_id}/cancel', () => {
    it('200 with the cancelled run for a queued run; no Location, no-store', async () => {
      const runId = await queuedRun();
      const response = await cancel(runId);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('location')).toBeNull();
      const body = RunStatusResponse.parse(await response.json());
      expect(body).toMatchObject({
        ok: true,
        run_id: runId,
        status: 'cancelled',
        status_message: 'cancelled',
      });
      expect(body.finished_at).not.toBeNull();
      expect(body.cancel_requested_at).not.toBeNull();
      // The run stays cancelled; cancelling again is the orchestrator's 409.
      const again = await cancel(runId);
      expect(again.status).toBe(409);
      expect(await errorOf(again)).toBe(
        `run ${runId} is already cancelled; only queued, retrying or running runs can be cancelled`,
      );
    });

    it('202 with Location for a running run: cancellation requested, status still running', async () => {
      const runId = await queuedRun();
      await app.runs.claim(CLIENT_ID, runId);
      const response = await cancel(runId);
      expect(response.status).toBe(202);
      expect(response.headers.get('location')).toBe(`/api/capability-runs/${runId}`);
      const body = RunStatusResponse.parse(await response.json());
      expect(body.status).toBe('running');
      expect(body.cancel_requested_at).not.toBeNull();
      expect(body.status_message).toContain('cancellation requested at');
      // The worker stops: polling the Location shows the end.
      await app.runs.report(CLIENT_ID, runId, { event: 'cancelled' });
      const polled = await getRun(app, response.headers.get('location') ?? '');
      expect(RunStatusResponse.parse(await polled.json()).status).toBe('cancelled');
    });

    it("404 for another client's run, the same answer as for a missing run", async () => {
      const foreign = await app.runs.completedCrtRun(OTHER_CLIENT_ID, {
        apex: 'example.com',
        include_first_seen: false,
        limit: 1,
      });
      const missing = randomUUID();
      const theirs = await cancel(foreign);
      const nobody = await cancel(missing);
      expect([theirs.status, nobody.status]).toEqual([404, 404]);
      expect(await errorOf(theirs)).toBe(`unknown run: ${foreign}`);
      expect(await errorOf(nobody)).toBe(`unknown run: ${missing}`);
    });

    it('422 for a malformed run id and 401/403 without capabilities:run, without an orchestrator call', async () => {
      const calls = app.requests('orchestrator', 'cancelRun').length;
      const malformed = await cancel('not-a-uuid');
      expect(malformed.status).toBe(422);
      expect(await errorOf(malformed)).toBe('run_id: must be a UUID');
      const missing = await cancel(randomUUID(), '');
      expect(missing.status).toBe(401);
      expect(missing.headers.get('cache-control')).toBe('no-store');
      await missing.arrayBuffer();
      for (const apiKey of [app.keys.quoter, app.keys.billing]) {
        const forbidden = await cancel(randomUUID(), apiKey);
        expect(forbidden.status).toBe(403);
        expect(await errorOf(forbidden)).toBe(
          'insufficient scope: this endpoint requires scope capabilities:run',
        );
      }
      expect(app.requests('orchestrator', 'cancelRun').length).toBe(calls);
    });

    it('ignores a body (the route takes none), answers 405 to GET and 503 when the orchestrator is down', async () => {
      const runId = await queuedRun();
      expect((await cancel(runId, app.keys.runner, '{"not json')).status).toBe(200);
      const get = await app.fetch(`/api/capability-runs/${runId}/cancel`);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST, OPTIONS');
      await get.arrayBuffer();
      app.platform.rpc.down('orchestrator');
      const down = await cancel(randomUUID());
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('2');
      await down.arrayBuffer();
    });
  });

  describe('GET /api/capability-runs/{run_id}/receipt', () => {
    it('200 RunReceiptResponse with the run, its quote and its ledger lines; no-store', async () => {
      const runId = await queuedRun();
      await app.runs.claim(CLIENT_ID, runId);
      await app.runs.report(CLIENT_ID, runId, { event: 'completed', result: PII_RESULT_OF_X });
      // The orchestrator settles a final run after answering its worker: the capture follows.
      const response = await pollUntil(async () => {
        const answer = await receipt(runId);
        return RunReceiptResponse.parse(await answer.clone().json()).ledger.settled ? answer : undefined;
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = RunReceiptResponse.parse(await response.json());
      expect(body.run).toMatchObject({ run_id: runId, status: 'completed', price_usd: '0.002' });
      expect(body.quote?.quote_id).toBe(runId);
      expect(body.ledger.lines.map((line) => [line.kind, line.amount_usd])).toEqual([
        ['hold', '-0.002'],
        ['capture', '-0.002'],
      ]);
      expect(body.ledger).toMatchObject({ charged_usd: '0.002', settled: true });
      expect(app.requests('orchestrator', 'receipt').at(-1)).toEqual({ client_id: CLIENT_ID, run_id: runId });
    });

    it("404 for another client's run (the same as a missing one); its owner sees it", async () => {
      const foreign = await app.runs.completedCrtRun(OTHER_CLIENT_ID, {
        apex: 'example.com',
        include_first_seen: false,
        limit: 1,
      });
      const theirs = await receipt(foreign);
      expect(theirs.status).toBe(404);
      expect(await errorOf(theirs)).toBe(`unknown run: ${foreign}`);
      const owner = await receipt(foreign, app.keys.otherBilling);
      expect(owner.status).toBe(200);
      expect(RunReceiptResponse.parse(await owner.json()).ledger).toMatchObject({ lines: [], settled: true });
    });

    it('billing:read, not capabilities:run: 403 for a run-only key, 401 without a key, 422 for a bad id', async () => {
      const calls = app.requests('orchestrator', 'receipt').length;
      const forbidden = await receipt(randomUUID(), app.keys.runner);
      expect(forbidden.status).toBe(403);
      expect(await errorOf(forbidden)).toBe('insufficient scope: this endpoint requires scope billing:read');
      expect((await app.fetch(`/api/capability-runs/${randomUUID()}/receipt`)).status).toBe(401);
      const malformed = await receipt('123');
      expect(malformed.status).toBe(422);
      expect(await errorOf(malformed)).toBe('run_id: must be a UUID');
      expect(app.requests('orchestrator', 'receipt').length).toBe(calls);
    });
  });
});
