import { randomUUID } from 'node:crypto';
import { CrtBatchPlanResult } from '@svc/capabilities';
import { Quote } from '@svc/contracts';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { pollUntil } from '@svc/testkit';
import { runJobId } from '../src/domain/dispatch';
import { inputHash } from '../src/domain/request-hash';
import { type InProcessHarness, rejection, startInProcessHarness } from './harness';

// The orchestrator's RPC handlers and report consumer run in this process, and so do the real
// handlers of the registry (the published catalog, with its real manifests) and the wallet (quotes,
// holds, settlements), on the same bus of a private stack; PostgreSQL and Redis are real. Nothing of
// ours is mocked.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

/** 1,500 characters: two started blocks of 1,000 → 2 × 0.002 USD. */
const TEXT = `Write to jane.doe@example.com or call +44 20 7946 0958. ${'lorem ipsum '.repeat(120)}`.slice(
  0,
  1_500,
);
const PARSED_INPUT = { text: TEXT, types: ['email', 'phone', 'iban', 'card'], style: 'label' };

describe('orchestrator.quote', () => {
  it('prices pii-redact per started 1,000 characters, with clearance figures and execution', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const quote = Quote.parse(await h.quote(clientId, 'pii-redact', { text: TEXT }));
    expect(quote).toMatchObject({
      slug: 'pii-redact',
      price_usd: '0.004',
      currency: 'USD',
      price_detail: { model: 'per_unit', unit: '1000_characters', units: 2, unit_price_usd: '0.002' },
      wallet_clearance: { cleared: true, balance_usd: '1.00', held_usd: '0.00', spend_cap_usd: null },
      execution: { effective_status: 'supported', runtime: 'node' },
    });
    // The quote is bound to the PARSED input: defaults applied.
    const stored = await h.prisma.quote.findUniqueOrThrow({ where: { id: quote.quote_id } });
    expect(stored).toMatchObject({ clientId, priceMicros: 4_000n, inputHash: inputHash(PARSED_INPUT) });
  });

  it('says whether a worker of the runtime is up (heartbeat sorted set)', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const html = { html: '<h1>Invoice</h1>' };
    const before = await h.quote(clientId, 'html-to-pdf', html);
    expect(before).toMatchObject({ price_usd: '0.01' });
    expect(before.execution).toEqual({
      effective_status: 'requires_worker',
      runtime: 'browser',
      worker_available: false,
      message:
        'requires_worker: no worker with runtime browser is up yet; a run is accepted and waits queued until one is',
    });
    await h.workerUp('browser', 'quote-test');
    try {
      expect((await h.quote(clientId, 'html-to-pdf', html)).execution).toMatchObject({
        worker_available: true,
      });
    } finally {
      await h.workerGone('browser', 'quote-test');
    }
  });

  it('refuses describe_only (409), unknown slugs (404) and invalid input (422)', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const whois = await rejection(h.quote(clientId, 'whois', { domain: 'example.com' }));
    expect(whois).toBeInstanceOf(ConflictError);
    expect(whois).toMatchObject({
      message: 'capability whois cannot be quoted or run: its execution mode is describe_only (spec §2.1)',
    });
    const unknown = await rejection(h.quote(clientId, 'no-such-capability', {}));
    expect(unknown).toBeInstanceOf(NotFoundError);
    const invalid = await rejection(h.quote(clientId, 'pii-redact', { text: '' }));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ message: expect.stringMatching(/^input\.text: /) });
  });
});

describe('orchestrator.startRun (modes)', () => {
  it('describe_only is 409 and leaves nothing behind', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const err = await rejection(
      h.run({
        client_id: clientId,
        slug: 'whois',
        input: { domain: 'example.com' },
        idempotency_key: `w-${randomUUID()}`,
      }),
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({
      message: 'capability whois cannot be quoted or run: its execution mode is describe_only (spec §2.1)',
    });
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(0);
  });

  it('plan_only completes at creation with its plan, no worker job, and announces run.finished', async () => {
    const clientId = await h.client({});
    const answer = await h.run({
      client_id: clientId,
      slug: 'crt-batch-plan',
      input: { apexes: ['example.com', 'www.example.org', 'example.com'] },
    });
    const runId = answer.run.run_id;
    expect(answer.replay).toBe(false);
    expect(answer.run).toMatchObject({
      status: 'completed',
      attempts: 0,
      price_usd: '0.00',
      status_message: 'completed: plan ready; the server ran nothing',
    });
    expect(answer.run.started_at).toBe(answer.run.finished_at);
    const plan = CrtBatchPlanResult.parse(answer.run.result);
    expect(plan.server_processing).toBe(false);
    expect(plan.counts.submitted).toBe(3);
    expect(answer.quote).toMatchObject({ quote_id: runId, price_usd: '0.00' });
    await pollUntil(() => h.finished.some((event) => event.run_id === runId && event.status === 'completed'));
    const jobs = await h.crtQueue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    expect(jobs.filter((job) => job.data.run_id === runId)).toEqual([]);
  });

  it('requires_worker: accepted and queued, waiting for a runtime none of which is up', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const html = { html: '<p>hello</p>' };
    const quote = await h.quote(clientId, 'html-to-pdf', html);
    const answer = await h.run({
      client_id: clientId,
      slug: 'html-to-pdf',
      input: html,
      quote_id: quote.quote_id,
      idempotency_key: `pdf-${randomUUID()}`,
    });
    const runId = answer.run.run_id;
    expect(answer.run).toMatchObject({
      status: 'queued',
      runtime: 'browser',
      price_usd: '0.01',
      waiting_for_runtime: 'browser',
      status_message:
        'queued: waiting for a worker with runtime browser; none is up yet, the run starts when one is',
    });
    expect(await h.queue('capability.html-to-pdf').getJob(runJobId(runId, 1))).toBeDefined();
    await h.workerUp('browser', 'mode-test');
    try {
      await expect(h.orchestrator.getRun({ client_id: clientId, run_id: runId })).resolves.toMatchObject({
        waiting_for_runtime: null,
        status_message: 'queued: waiting for a worker',
      });
    } finally {
      await h.workerGone('browser', 'mode-test');
    }
  });
});
