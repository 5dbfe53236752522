import { randomUUID } from 'node:crypto';
import { runCancelKey } from '@svc/contracts';
import { ConflictError, NotFoundError } from '@svc/errors';
import { pollUntil } from '@svc/testkit';
import { runJobId } from '../src/domain/dispatch';
import { type InProcessHarness, rejection, startInProcessHarness } from './harness';

// orchestrator.cancelRun (spec §3, §4.10; docs/decisions.md L-B). The orchestrator's handlers run in
// this process; registry and wallet are real processes; PostgreSQL and Redis are real.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

const TEXT = 'Call me on +44 20 7946 0958 or mail jane@example.com.';
const PII_RESULT = {
  redacted_text: 'Call me on [PHONE] or mail [EMAIL].',
  findings: [],
  counts: { email: 1, phone: 1, iban: 0, card: 0 },
  characters: TEXT.length,
};

/** A queued, paid pii-redact run (0.002 USD held) of a fresh client. */
async function paidRun() {
  const clientId = await h.client({ balanceUsd: '1.00' });
  const quote = await h.quote(clientId, 'pii-redact', { text: TEXT });
  const { run } = await h.run({
    client_id: clientId,
    slug: 'pii-redact',
    input: { text: TEXT },
    quote_id: quote.quote_id,
    idempotency_key: `cancel-${randomUUID()}`,
  });
  return { clientId, runId: run.run_id };
}

async function settleJob(runId: string) {
  return (await h.queue('wallet.settle').getJob(`settle-${runId}`))?.data;
}

describe('cancelRun', () => {
  it('cancels a queued run at once: job removed, marker set, run.finished, hold released', async () => {
    const { clientId, runId } = await paidRun();
    expect(await h.queue('capability.pii-redact').getJob(runJobId(runId))).toBeDefined();

    const answer = await h.orchestrator.call('cancelRun', { client_id: clientId, run_id: runId });
    expect(answer.outcome).toBe('cancelled');
    expect(answer.run).toMatchObject({
      status: 'cancelled',
      status_message: 'cancelled',
      price_usd: '0.002',
    });
    expect(answer.run.finished_at).not.toBeNull();
    expect(answer.run.cancel_requested_at).not.toBeNull();

    expect(await h.queue('capability.pii-redact').getJob(runJobId(runId))).toBeUndefined();
    expect(await h.bus.redis.get(runCancelKey(h.stack.prefix, runId))).toBe('1');
    expect(await h.bus.redis.pttl(runCancelKey(h.stack.prefix, runId))).toBeGreaterThan(23 * 3_600_000);
    await pollUntil(() => h.finished.some((event) => event.run_id === runId && event.status === 'cancelled'));
    expect(await settleJob(runId)).toEqual({
      run_id: runId,
      client_id: clientId,
      outcome: 'release',
      reason: 'run cancelled',
    });
    await pollUntil(
      async () => (await h.wallet.call('runLedger', { client_id: clientId, run_id: runId })).settled,
    );
    expect(await h.wallet.call('runLedger', { client_id: clientId, run_id: runId })).toMatchObject({
      held_usd: '0.00',
      charged_usd: '0.00',
    });

    // A finished run cannot be cancelled again.
    const again = await rejection(h.orchestrator.call('cancelRun', { client_id: clientId, run_id: runId }));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({
      message: `run ${runId} is already cancelled; only queued, retrying or running runs can be cancelled`,
    });
  });

  it('requests a running run to stop (cooperative); its cancelled report ends it and releases the hold', async () => {
    const { clientId, runId } = await paidRun();
    const at = new Date().toISOString();
    await h.report({ event: 'started', run_id: runId, attempt: 1, at });

    const first = await h.orchestrator.call('cancelRun', { client_id: clientId, run_id: runId });
    expect(first.outcome).toBe('cancel_requested');
    const requestedAt = first.run.cancel_requested_at;
    expect(first.run).toMatchObject({
      status: 'running',
      status_message: `running (attempt 1); cancellation requested at ${requestedAt}`,
    });
    expect(requestedAt).not.toBeNull();
    await pollUntil(() => h.cancelRequests.some((event) => event.run_id === runId));
    expect(await h.bus.redis.get(runCancelKey(h.stack.prefix, runId))).toBe('1');

    // Asking again answers the same; the first request's time stands.
    const second = await h.orchestrator.call('cancelRun', { client_id: clientId, run_id: runId });
    expect(second).toMatchObject({ outcome: 'cancel_requested', run: { cancel_requested_at: requestedAt } });
    expect(await settleJob(runId)).toBeUndefined();

    await expect(
      h.report({ event: 'cancelled', run_id: runId, attempt: 1, at: new Date().toISOString() }),
    ).resolves.toEqual({ applied: true });
    await expect(
      h.orchestrator.call('getRun', { client_id: clientId, run_id: runId }),
    ).resolves.toMatchObject({
      status: 'cancelled',
      cancel_requested_at: requestedAt,
    });
    await pollUntil(() => h.finished.some((event) => event.run_id === runId && event.status === 'cancelled'));
    expect(await settleJob(runId)).toMatchObject({ outcome: 'release', reason: 'run cancelled' });
  });

  it('charges a running run that completed before it could stop', async () => {
    const { clientId, runId } = await paidRun();
    const at = new Date().toISOString();
    await h.report({ event: 'started', run_id: runId, attempt: 1, at });
    await h.orchestrator.call('cancelRun', { client_id: clientId, run_id: runId });
    await h.report({ event: 'completed', run_id: runId, attempt: 1, at, result: PII_RESULT });
    // The handler's late `cancelled` changes nothing.
    await expect(h.report({ event: 'cancelled', run_id: runId, attempt: 1, at })).resolves.toEqual({
      applied: false,
    });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('completed');
    expect(await settleJob(runId)).toMatchObject({ outcome: 'capture', reason: 'run completed' });
  });

  it('cancels a retrying run at once', async () => {
    const { clientId, runId } = await paidRun();
    const at = new Date().toISOString();
    await h.report({ event: 'started', run_id: runId, attempt: 1, at });
    await h.report({ event: 'retrying', run_id: runId, attempt: 1, at, error: 'worker crashed' });
    const answer = await h.orchestrator.call('cancelRun', { client_id: clientId, run_id: runId });
    expect(answer).toMatchObject({ outcome: 'cancelled', run: { status: 'cancelled' } });
    expect(await settleJob(runId)).toMatchObject({ outcome: 'release' });
  });

  it('cancels a free queued crt run without any settlement', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const answer = await h.orchestrator.call('cancelRun', { client_id: clientId, run_id: run.run_id });
    expect(answer).toMatchObject({ outcome: 'cancelled', run: { status: 'cancelled', price_usd: '0.00' } });
    expect(await h.jobOf(run.run_id)).toBeUndefined();
    expect(await settleJob(run.run_id)).toBeUndefined();
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: run.run_id } })).settleQueuedAt).toBeNull();
  });

  it('is the same 404 for another client as for an unknown run; 409 for a completed run', async () => {
    const { clientId, runId } = await paidRun();
    const stranger = await rejection(
      h.orchestrator.call('cancelRun', { client_id: randomUUID(), run_id: runId }),
    );
    expect(stranger).toBeInstanceOf(NotFoundError);
    expect(stranger).toMatchObject({ message: `unknown run: ${runId}` });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('queued');

    const at = new Date().toISOString();
    await h.report({ event: 'completed', run_id: runId, attempt: 1, at, result: PII_RESULT });
    const finished = await rejection(
      h.orchestrator.call('cancelRun', { client_id: clientId, run_id: runId }),
    );
    expect(finished).toBeInstanceOf(ConflictError);
    expect(finished).toMatchObject({
      message: `run ${runId} is already completed; only queued, retrying or running runs can be cancelled`,
    });
  });
});
