import { HtmlToPdfResult } from '@svc/capabilities';
import { RunStatusResponse } from '@svc/contracts';
import type { TestApiKey } from '@svc/testkit';
import {
  errorOf,
  getRun,
  postQuote,
  postRun,
  type QuoteFirstStack,
  quoteAndRun,
  setRunStatus,
  startQuoteFirstStack,
  waitForRun,
  waitForSettled,
  waitForStatus,
} from './support';

// Every state transition over HTTP with real worker processes: requires_worker waiting for its
// runtime, cancel in each state, a retrying attempt, a worker killed mid-run, and html-to-pdf on a
// browser worker (Debian chromium).

const ALL = ['capabilities:quote', 'capabilities:run', 'billing:read'];
const HTML =
  '<html><body><h1>Invoice 42</h1><p style="page-break-after: always">one</p><p>two</p></body></html>';

// Whole-platform flows with retries and worker restarts take longer than the default 60 s.
jest.setTimeout(120_000);

let qf: QuoteFirstStack;
let client: TestApiKey;

beforeAll(async () => {
  // The crt route answers 202 after half a second, so a slow crt run can be watched and cancelled.
  qf = await startQuoteFirstStack({ CRT_RUN_WAIT_MS: '500' });
  client = await qf.stack.createApiKey({ scopes: ALL, balanceUsd: '10' });
}, 120_000);

afterAll(async () => {
  await qf?.close();
});

function cancel(runId: string) {
  return qf.stack.fetch(`/api/capability-runs/${runId}/cancel`, { method: 'POST', apiKey: client.apiKey });
}

async function startCrt(apex: string): Promise<string> {
  const answer = await qf.stack.fetch('/api/capabilities/crt/run', {
    method: 'POST',
    apiKey: client.apiKey,
    json: { input: { apex } },
  });
  expect(answer.status).toBe(202);
  return RunStatusResponse.parse(answer.json).run_id;
}

describe('requires_worker (html-to-pdf, runtime browser)', () => {
  it('waits for a browser worker, can be cancelled while queued, and the hold is released', async () => {
    const quoteAnswer = await postQuote(qf.stack, client.apiKey, 'html-to-pdf', { input: { html: HTML } });
    expect(quoteAnswer.status).toBe(200);
    expect((quoteAnswer.json as { quote: { execution: unknown } }).quote.execution).toMatchObject({
      effective_status: 'requires_worker',
      runtime: 'browser',
      worker_available: false,
    });

    const started = await quoteAndRun(qf.stack, client.apiKey, 'html-to-pdf', { html: HTML });
    expect(started.status).toBe('queued');
    const waiting = await getRun(qf.stack, client.apiKey, started.run_id);
    expect(waiting.waiting_for_runtime).toBe('browser');
    expect(waiting.status_message).toContain('browser');

    const cancelled = await cancel(started.run_id);
    expect(cancelled.status).toBe(200);
    expect(RunStatusResponse.parse(cancelled.json)).toMatchObject({
      status: 'cancelled',
      run_id: started.run_id,
    });
    const receipt = await waitForSettled(qf.stack, client.apiKey, started.run_id);
    expect(receipt.ledger.lines.map((line) => line.kind)).toEqual(['hold', 'release']);
    expect(receipt.ledger.charged_usd).toBe('0.00');
    // Cancelling again is an error: the run is finished.
    expect((await cancel(started.run_id)).status).toBe(409);
  });

  it('retries a failed attempt (browser cannot start), can be cancelled while retrying, then fails for good', async () => {
    const broken = await qf.stack.startReplica('worker', {
      env: { WORKER_RUNTIMES: 'browser', CHROMIUM_PATH: '/nonexistent/chromium' },
    });
    try {
      const first = await quoteAndRun(qf.stack, client.apiKey, 'html-to-pdf', { html: HTML });
      const retrying = await waitForStatus(qf.stack, client.apiKey, first.run_id, 'retrying');
      expect(retrying.status_message).toMatch(/retrying: attempt 1 failed/);
      const cancelled = await cancel(first.run_id);
      expect(cancelled.status).toBe(200);
      expect(RunStatusResponse.parse(cancelled.json).status).toBe('cancelled');

      const second = await quoteAndRun(qf.stack, client.apiKey, 'html-to-pdf', { html: '<p>second</p>' });
      const failed = await waitForStatus(qf.stack, client.apiKey, second.run_id, 'failed', 45_000);
      expect(failed.attempts).toBe(3);
      expect(failed.error?.code).toBe('internal');
      const receipt = await waitForSettled(qf.stack, client.apiKey, second.run_id);
      expect(receipt.ledger.lines.map((line) => line.kind)).toEqual(['hold', 'release']);
    } finally {
      await broken.stop();
    }
  });

  it('runs once a browser worker is up and returns the PDF', async () => {
    const started = await quoteAndRun(qf.stack, client.apiKey, 'html-to-pdf', {
      html: HTML,
      format: 'Letter',
    });
    const browser = await qf.stack.startReplica('worker', { env: { WORKER_RUNTIMES: 'browser' } });
    try {
      const done = await waitForStatus(qf.stack, client.apiKey, started.run_id, 'completed', 60_000);
      const result = HtmlToPdfResult.parse(done.result);
      // Version 2.0.0: the PDF is the run's artifact (its download is tested with the artifacts).
      expect(result.artifact).toBe('document.pdf');
      expect(result.bytes).toBeGreaterThan(0);
      expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(result.pages).toBe(2);
      const receipt = await waitForSettled(qf.stack, client.apiKey, started.run_id);
      expect(receipt.ledger.lines.map((line) => [line.kind, line.amount_usd])).toEqual([
        ['hold', '-0.01'],
        ['capture', '-0.01'],
      ]);
    } finally {
      await browser.stop();
    }
  });
});

describe('running runs', () => {
  it('cancels a running run cooperatively: 202, then cancelled', async () => {
    qf.fake.setBehaviour('crtsh', 'delay:20000', { times: 1 });
    const runId = await startCrt('cancel-me.com');
    await waitForStatus(qf.stack, client.apiKey, runId, 'running');
    const requested = await cancel(runId);
    expect(requested.status).toBe(202);
    const body = RunStatusResponse.parse(requested.json);
    expect(body.status).toBe('running');
    expect(body.cancel_requested_at).not.toBeNull();
    const cancelled = await waitForStatus(qf.stack, client.apiKey, runId, 'cancelled', 15_000);
    expect(cancelled.finished_at).not.toBeNull();
    qf.fake.reset();
  });

  it('picks a run up again after its worker is killed mid-run, and shows the new attempt', async () => {
    qf.fake.setBehaviour('crtsh', 'delay:8000', { times: 1 });
    const runId = await startCrt('killed-worker.com');
    const running = await waitForStatus(qf.stack, client.apiKey, runId, 'running');
    expect(running.attempts).toBe(1);
    await qf.stack.kill('worker', 'SIGKILL');
    await qf.stack.start('worker');
    const recovered = await waitForRun(
      qf.stack,
      client.apiKey,
      runId,
      (run) => run.attempts >= 2 && (run.status === 'running' || run.status === 'completed'),
      30_000,
    );
    expect(recovered.status_message).toMatch(/attempt 2|completed/);
    const done = await waitForStatus(qf.stack, client.apiKey, runId, 'completed', 30_000);
    expect(done.attempts).toBe(2);
    expect(qf.fake.calls('crtsh', 'killed-worker.com')).toBe(2);
  });
});

it('refuses html-to-pdf input over the size limit before anything is held', async () => {
  const answer = await postQuote(qf.stack, client.apiKey, 'html-to-pdf', {
    input: { html: 'x'.repeat(500_001) },
  });
  expect(answer.status).toBe(422);
  expect(errorOf(answer)).toContain('input.html');
});

// Moved from quote-run.int.test.ts, which runs on the jest run's shared platform: this test changes
// pii-redact's machine_run_status in the catalog, which every suite on a platform sees.
describe('machine_run_status', () => {
  it('treats runnable as supported and refuses unknown or missing values', async () => {
    const payer = await qf.stack.createApiKey({ scopes: ALL, balanceUsd: '5' });
    try {
      await setRunStatus(qf, 'pii-redact', 'runnable');
      const legacy = await quoteAndRun(qf.stack, payer.apiKey, 'pii-redact', { text: 'legacy mode' });
      await waitForStatus(qf.stack, payer.apiKey, legacy.run_id, 'completed');

      await setRunStatus(qf, 'pii-redact', 'experimental');
      const unknown = await postQuote(qf.stack, payer.apiKey, 'pii-redact', { input: { text: 'x' } });
      expect(unknown.status).toBe(409);
      expect(errorOf(unknown)).toContain('"experimental"');

      await setRunStatus(qf, 'pii-redact', '');
      const missing = await postQuote(qf.stack, payer.apiKey, 'pii-redact', { input: { text: 'x' } });
      expect(missing.status).toBe(409);
      const missingRun = await postRun(
        qf.stack,
        payer.apiKey,
        'pii-redact',
        { input: { text: 'x' } },
        { idempotencyKey: 'missing-mode-1' },
      );
      expect(missingRun.status).toBe(409);
    } finally {
      await setRunStatus(qf, 'pii-redact', 'supported');
    }
  });
});
