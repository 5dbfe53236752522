import { randomUUID } from 'node:crypto';
import { type JobProcessor, processJobs } from '@svc/bus';
import { pollUntil } from '@svc/testkit';
import { crtRequestHash, inputHash } from '../src/domain/request-hash';
import { crtResult, type Harness, startHarness } from './harness';

// The orchestrator as deployed: its own process (src/main.ts) next to real registry and wallet
// processes. This suite plays the worker: it takes `capability.crt` and `capability.pii-redact`
// jobs, claims them and reports (`orchestrator.claimAttempt`, `orchestrator.reportRun`).
let h: Harness;
let worker: JobProcessor;
let piiWorker: JobProcessor;
const taken: string[] = [];

const TEXT = 'Mail jane@example.com today.';
const PII_RESULT = {
  redacted_text: 'Mail [EMAIL] today.',
  findings: [{ type: 'email', start: 5, end: 21, replacement: '[EMAIL]' }],
  counts: { email: 1, phone: 0, iban: 0, card: 0 },
  characters: TEXT.length,
};

beforeAll(async () => {
  h = await startHarness({
    services: ['registry', 'wallet', 'orchestrator'],
    env: {
      // ms: a short dispatcher interval so a run left undispatched is picked up within the test.
      RUN_DISPATCH_INTERVAL_MS: '200',
      // ms: holds without a run are released after 1 s here (10 min in production), far beyond the
      // few ms between a hold's commit and its run's.
      ORPHAN_HOLD_AFTER_MS: '1000',
    },
  });
  worker = processJobs(h.bus, 'capability.crt', async (job, { jobId }) => {
    taken.push(job.run_id);
    const claim = await h.claim(job.run_id, jobId);
    if (!claim.go) return { outcome: 'skipped' };
    const base = { run_id: job.run_id, job_id: jobId, attempt: claim.attempt };
    await h.report({
      ...base,
      event: 'completed',
      at: new Date().toISOString(),
      result: crtResult(job.apex),
    });
    return { outcome: 'completed' };
  });
  piiWorker = processJobs(h.bus, 'capability.pii-redact', async (job, { jobId }) => {
    const claim = await h.claim(job.run_id, jobId);
    if (!claim.go) return { outcome: 'skipped' };
    const base = { run_id: job.run_id, job_id: jobId, attempt: claim.attempt };
    await h.report({ ...base, event: 'completed', at: new Date().toISOString(), result: PII_RESULT });
    return { outcome: 'completed' };
  });
  await Promise.all([worker.waitUntilReady(), piiWorker.waitUntilReady()]);
});

afterAll(async () => {
  await piiWorker?.close();
  await worker?.close();
  await h?.close();
});

describe('orchestrator process', () => {
  it('takes a run from startCrtRun through the worker to completed, announcing run.finished', async () => {
    const clientId = randomUUID();
    const { run, replay } = await h.orchestrator.startCrtRun({
      client_id: clientId,
      client_type: 'api',
      input: { apex: 'example.com' },
      idempotency_key: `process-${randomUUID()}`,
    });
    expect(replay).toBe(false);
    await pollUntil(() =>
      h.finished.some((event) => event.run_id === run.run_id && event.status === 'completed'),
    );
    const done = await h.orchestrator.getRun({ client_id: clientId, run_id: run.run_id });
    expect(done).toMatchObject({ status: 'completed', result: crtResult('example.com') });
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
  });

  it('keeps runs across a restart and queues, at start-up, a run committed but never queued', async () => {
    const clientId = randomUUID();
    const { run } = await h.orchestrator.startCrtRun({
      client_id: clientId,
      client_type: 'api',
      input: { apex: 'example.org' },
    });
    await pollUntil(() => h.finished.some((event) => event.run_id === run.run_id));
    const before = await h.orchestrator.getRun({ client_id: clientId, run_id: run.run_id });

    // SIGTERM: a graceful shutdown in the documented order exits 0.
    expect(await h.stack.stop('orchestrator')).toBe(0);
    // What a crash between the commit and the enqueue leaves behind: a queued, undispatched run.
    const orphanId = randomUUID();
    const input = { apex: 'example.net', include_first_seen: false, limit: 10 };
    await h.prisma.run.create({
      data: {
        id: orphanId,
        publicId: orphanId,
        clientId,
        slug: 'crt',
        status: 'queued',
        clientType: 'api',
        quoteId: orphanId,
        input,
        requestHash: crtRequestHash({ input, clientType: 'api' }),
      },
    });
    await h.stack.start('orchestrator');

    await expect(h.orchestrator.getRun({ client_id: clientId, run_id: run.run_id })).resolves.toEqual(before);
    await pollUntil(() =>
      h.finished.some((event) => event.run_id === orphanId && event.status === 'completed'),
    );
    expect(taken.filter((id) => id === orphanId)).toHaveLength(1);
    const orphan = await h.orchestrator.getRun({ client_id: clientId, run_id: orphanId });
    expect(orphan).toMatchObject({ status: 'completed', result: { apex: 'example.net' } });
  });

  it('quote → paid run → worker completes → the wallet captures the quoted price', async () => {
    const clientId = await h.client({ balanceUsd: '0.50' });
    const quote = await h.orchestrator.quote({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      client_type: 'api',
    });
    expect(quote).toMatchObject({ price_usd: '0.002', wallet_clearance: { cleared: true } });
    const { run } = await h.orchestrator.startRun({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: quote.quote_id,
      client_type: 'api',
      idempotency_key: `process-paid-${randomUUID()}`,
    });
    await pollUntil(() =>
      h.finished.some((event) => event.run_id === run.run_id && event.status === 'completed'),
    );
    await pollUntil(async () => {
      const receipt = await h.orchestrator.receipt({ client_id: clientId, run_id: run.run_id });
      return receipt.ledger.settled;
    });
    const receipt = await h.orchestrator.receipt({ client_id: clientId, run_id: run.run_id });
    expect(receipt).toMatchObject({
      run: { status: 'completed', result: PII_RESULT, price_usd: '0.002' },
      ledger: { charged_usd: '0.002', held_usd: '0.00', settled: true },
    });
    expect(await h.wallet.balance({ client_id: clientId })).toMatchObject({ balance_usd: '0.498' });
  });

  it('its sweeper releases a hold whose run was never recorded', async () => {
    const clientId = await h.client({ balanceUsd: '0.50' });
    const quote = await h.orchestrator.quote({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      client_type: 'api',
    });
    await h.wallet.holdForRun({
      client_id: clientId,
      run_id: quote.quote_id,
      quote_id: quote.quote_id,
      slug: 'pii-redact',
      input_hash: inputHash({ text: TEXT, types: ['email', 'phone', 'iban', 'card'], style: 'label' }),
    });
    await pollUntil(
      async () => (await h.wallet.runLedger({ client_id: clientId, run_id: quote.quote_id })).settled,
      { timeoutMs: 15_000 },
    );
    const ledger = await h.wallet.runLedger({ client_id: clientId, run_id: quote.quote_id });
    expect(ledger.lines.map((line) => [line.kind, line.note])).toEqual([
      ['hold', `hold for run ${quote.quote_id}`],
      ['release', 'hold without a run'],
    ]);
  });
});

it("serves every capability queue's depth and oldest wait on /metrics (issue 25 item 6)", async () => {
  const text = await (await fetch(`${h.stack.healthUrl('orchestrator')}/metrics`)).text();
  for (const metric of ['svc_queue_waiting_jobs', 'svc_queue_oldest_waiting_seconds']) {
    expect(text).toMatch(new RegExp(`^${metric}\\{[^}]*queue="jobs\\.capability\\.crt"[^}]*\\} \\d`, 'm'));
  }
});
