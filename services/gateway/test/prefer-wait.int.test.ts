import { QuoteResponse, RunStartResponse, RunStatusResponse } from '@svc/contracts';
import { PII_RESULT_OF_X } from '@svc/test-platform';
import { pollUntil } from '@svc/testkit';
import { type AppHarness, CLIENT_ID, startAppHarness } from './support/app-harness';
import { post, uniqueKey } from './support/run-requests';

/**
 * `Prefer: wait=N` (issue 25 item 7, RFC 7240) on POST /api/capabilities/{slug}/run and GET
 * /api/capability-runs/{run_id}, through the app factory, the real orchestrator's handlers and the
 * real RunWaiter: a run that ends within N seconds is answered finished, one that does not is
 * answered as without the preference once N seconds have passed, a client that goes away releases
 * its wait, and a preference the gateway does not understand changes nothing.
 */

const PII_INPUT = { text: 'x' };

describe('Prefer: wait on the run routes', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());

  /** A pii-redact quote of the payer; its id becomes the run's. */
  const quoted = async (): Promise<string> => {
    const response = await post(app, '/api/capabilities/pii-redact/quote', {
      apiKey: app.keys.payer,
      body: { input: PII_INPUT },
    });
    const body: unknown = await response.json();
    if (response.status !== 200)
      throw new Error(`quote answered ${response.status}: ${JSON.stringify(body)}`);
    return QuoteResponse.parse(body).quote.quote_id;
  };
  const run = (quoteId: string, prefer?: string) =>
    post(app, '/api/capabilities/pii-redact/run', {
      apiKey: app.keys.payer,
      key: uniqueKey(),
      body: { input: PII_INPUT, quote_id: quoteId },
      headers: prefer === undefined ? {} : { Prefer: prefer },
    });
  const status = (runId: string, prefer?: string, signal?: AbortSignal) =>
    app.fetch(`/api/capability-runs/${runId}`, {
      headers: {
        Authorization: `Bearer ${app.keys.payer}`,
        ...(prefer === undefined ? {} : { Prefer: prefer }),
      },
      ...(signal === undefined ? {} : { signal }),
    });
  /** Once a request waits on the run (the waiter holds it), the worker claims and completes it. */
  const completeWhileWaited = async (runId: string) => {
    await pollUntil(() => app.waiter.size > 0, { timeoutMs: 10_000 });
    await app.runs.claim(CLIENT_ID, runId);
    await app.runs.report(CLIENT_ID, runId, { event: 'completed', result: PII_RESULT_OF_X });
  };

  it('POST run: a run that ends within the wait is answered 200 with its result, Preference-Applied', async () => {
    const runId = await quoted();
    const answering = run(runId, 'wait=20');
    await completeWhileWaited(runId);
    const response = await answering;
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=20');
    expect(response.headers.get('location')).toBeNull();
    const body = RunStartResponse.parse(await response.json());
    expect(body).toMatchObject({ run_id: runId, status: 'completed', idempotent_replay: false });
    expect(body.run).toMatchObject({ status: 'completed', result: PII_RESULT_OF_X });
    expect(app.waiter.size).toBe(0);
  });

  it('POST run: a run still queued after N seconds is answered 202 as without the preference', async () => {
    const runId = await quoted();
    const response = await run(runId, 'respond-async, wait=1');
    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBe('wait=1');
    expect(response.headers.get('location')).toBe(`/api/capability-runs/${runId}`);
    expect(RunStartResponse.parse(await response.json())).toMatchObject({ run_id: runId, status: 'queued' });
    expect(app.waiter.size).toBe(0);
  });

  it('ignores a preference it does not understand: the answer of today, no Preference-Applied', async () => {
    for (const prefer of ['wait=abc', 'wait=0', 'handling=strict', 'respond-async']) {
      const runId = await quoted();
      const response = await run(runId, prefer);
      expect({ prefer, status: response.status }).toEqual({ prefer, status: 202 });
      expect(response.headers.get('preference-applied')).toBeNull();
      const read = await status(runId, prefer);
      expect(read.status).toBe(200);
      expect(read.headers.get('preference-applied')).toBeNull();
      expect(RunStatusResponse.parse(await read.json()).status).toBe('queued');
    }
    expect(app.waiter.size).toBe(0);
  });

  it('GET run: waits for a run still going, and answers a finished one at once (wait above 55 s bounded)', async () => {
    const runId = await quoted();
    expect((await run(runId)).status).toBe(202);
    const reading = status(runId, 'wait=30');
    await completeWhileWaited(runId);
    const response = await reading;
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=30');
    expect(RunStatusResponse.parse(await response.json())).toMatchObject({
      run_id: runId,
      status: 'completed',
      result: PII_RESULT_OF_X,
    });

    const finished = await status(runId, 'wait=600');
    expect(finished.status).toBe(200);
    expect(finished.headers.get('preference-applied')).toBe('wait=55');
    expect(RunStatusResponse.parse(await finished.json()).status).toBe('completed');
  });

  it('GET run: a client that goes away while waiting releases its wait at once', async () => {
    const runId = await quoted();
    expect((await run(runId)).status).toBe(202);
    const controller = new AbortController();
    const reading = status(runId, 'wait=55', controller.signal).catch((err: unknown) => err);
    await pollUntil(() => app.waiter.size === 1, { timeoutMs: 10_000 });
    controller.abort();
    expect(await reading).toMatchObject({ name: 'AbortError' });
    // Held to the deadline, the waiter would keep it for 55 s.
    await pollUntil(() => app.waiter.size === 0, { timeoutMs: 5_000 });
  });
});
