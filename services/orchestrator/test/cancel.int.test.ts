import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '@svc/errors';
import { pollUntil } from '@svc/testkit';
import { type InProcessHarness, rejection, startInProcessHarness } from './harness';

// orchestrator.cancelRun (spec §3, §4.10; docs/decisions.md L-B) and the claims it refuses. The
// orchestrator's handlers run in this process, and so do the registry's and the wallet's real ones,
// on the same bus; PostgreSQL and Redis are real.

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

/** A queued, paid pii-redact run (0.002 USD held) of a fresh client, and its current job id. */
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
  const { jobId } = await h.prisma.run.findUniqueOrThrow({ where: { id: run.run_id } });
  if (jobId === null) throw new Error('the run was not handed over');
  return { clientId, runId: run.run_id, jobId };
}

/** The capture or release line of a run, once the wallet wrote it and the orchestrator recorded it. */
async function settlement(clientId: string, runId: string) {
  await pollUntil(
    async () =>
      (await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).settledAt === null ? undefined : true,
    { what: `settled_at of ${runId}` },
  );
  const { lines } = await h.wallet.runLedger({ client_id: clientId, run_id: runId });
  return lines.filter((line) => line.kind !== 'hold').map((line) => ({ kind: line.kind, note: line.note }));
}

/** No settlement asked for: no capture or release line, settled_at NULL. */
async function expectUnsettled(clientId: string, runId: string) {
  expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).settledAt).toBeNull();
  const { lines } = await h.wallet.runLedger({ client_id: clientId, run_id: runId });
  expect(lines.filter((line) => line.kind !== 'hold')).toEqual([]);
}

describe('cancelRun', () => {
  it('cancels a queued run at once: job removed, run.finished, hold released; its job is refused', async () => {
    const { clientId, runId, jobId } = await paidRun();
    expect(await h.queue('capability.pii-redact').getJob(jobId)).toBeDefined();

    const answer = await h.orchestrator.cancelRun({ client_id: clientId, run_id: runId });
    expect(answer.outcome).toBe('cancelled');
    expect(answer.run).toMatchObject({
      status: 'cancelled',
      status_message: 'cancelled',
      price_usd: '0.002',
    });
    expect(answer.run.finished_at).not.toBeNull();
    expect(answer.run.cancel_requested_at).not.toBeNull();

    expect(await h.queue('capability.pii-redact').getJob(jobId)).toBeUndefined();
    await pollUntil(() => h.finished.some((event) => event.run_id === runId && event.status === 'cancelled'));
    expect(await settlement(clientId, runId)).toEqual([{ kind: 'release', note: 'run cancelled' }]);
    expect(await h.wallet.runLedger({ client_id: clientId, run_id: runId })).toMatchObject({
      held_usd: '0.00',
      charged_usd: '0.00',
    });
    // A worker that took the job in that instant is told not to run it.
    await expect(h.claim(runId, jobId)).resolves.toEqual({ go: false, reason: 'cancelled' });

    // A finished run cannot be cancelled again.
    const again = await rejection(h.orchestrator.cancelRun({ client_id: clientId, run_id: runId }));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({
      message: `run ${runId} is already cancelled; only queued, retrying or running runs can be cancelled`,
    });
  });

  it('requests a running run to stop (cooperative); its cancelled report ends it and releases the hold', async () => {
    const { clientId, runId, jobId } = await paidRun();
    await expect(h.claim(runId, jobId)).resolves.toEqual({ go: true, attempt: 1 });

    const first = await h.orchestrator.cancelRun({ client_id: clientId, run_id: runId });
    expect(first.outcome).toBe('cancel_requested');
    const requestedAt = first.run.cancel_requested_at;
    expect(first.run).toMatchObject({
      status: 'running',
      status_message: `running (attempt 1); cancellation requested at ${requestedAt}`,
    });
    expect(requestedAt).not.toBeNull();
    await pollUntil(() => h.cancelRequests.some((event) => event.run_id === runId));

    // Asking again answers the same; the first request's time stands.
    const second = await h.orchestrator.cancelRun({ client_id: clientId, run_id: runId });
    expect(second).toMatchObject({ outcome: 'cancel_requested', run: { cancel_requested_at: requestedAt } });
    await expectUnsettled(clientId, runId);

    await expect(
      h.report({
        event: 'cancelled',
        run_id: runId,
        job_id: jobId,
        attempt: 1,
        at: new Date().toISOString(),
      }),
    ).resolves.toEqual({ applied: true });
    await expect(h.orchestrator.getRun({ client_id: clientId, run_id: runId })).resolves.toMatchObject({
      status: 'cancelled',
      cancel_requested_at: requestedAt,
    });
    await pollUntil(() => h.finished.some((event) => event.run_id === runId && event.status === 'cancelled'));
    expect(await settlement(clientId, runId)).toEqual([{ kind: 'release', note: 'run cancelled' }]);
  });

  it('a running run whose worker died is cancelled by its job’s next claim (nothing runs)', async () => {
    const { clientId, runId, jobId } = await paidRun();
    await h.claim(runId, jobId);
    await h.orchestrator.cancelRun({ client_id: clientId, run_id: runId });
    // The worker died before it heard the request; BullMQ hands the job to another worker.
    await expect(h.claim(runId, jobId)).resolves.toEqual({ go: false, reason: 'cancelled' });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: 'cancelled',
      attempts: 1,
    });
    await pollUntil(() => h.finished.some((event) => event.run_id === runId && event.status === 'cancelled'));
    expect(await settlement(clientId, runId)).toEqual([{ kind: 'release', note: 'run cancelled' }]);
  });

  it('charges a running run that completed before it could stop', async () => {
    const { clientId, runId, jobId } = await paidRun();
    const at = new Date().toISOString();
    await h.claim(runId, jobId);
    await h.orchestrator.cancelRun({ client_id: clientId, run_id: runId });
    const base = { run_id: runId, job_id: jobId, attempt: 1, at } as const;
    await h.report({ ...base, event: 'completed', result: PII_RESULT });
    // The handler's late `cancelled` changes nothing.
    await expect(h.report({ ...base, event: 'cancelled' })).resolves.toEqual({ applied: false });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('completed');
    expect(await settlement(clientId, runId)).toEqual([{ kind: 'capture', note: 'run completed' }]);
  });

  it('cancels a retrying run at once', async () => {
    const { clientId, runId, jobId } = await paidRun();
    const at = new Date().toISOString();
    await h.claim(runId, jobId);
    await h.report({
      event: 'retrying',
      run_id: runId,
      job_id: jobId,
      attempt: 1,
      at,
      error: 'worker crashed',
    });
    const answer = await h.orchestrator.cancelRun({ client_id: clientId, run_id: runId });
    expect(answer).toMatchObject({ outcome: 'cancelled', run: { status: 'cancelled' } });
    expect(await settlement(clientId, runId)).toEqual([{ kind: 'release', note: 'run cancelled' }]);
    await expect(h.claim(runId, jobId)).resolves.toEqual({ go: false, reason: 'cancelled' });
  });

  it('cancels a free queued crt run without any settlement', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const answer = await h.orchestrator.cancelRun({ client_id: clientId, run_id: run.run_id });
    expect(answer).toMatchObject({ outcome: 'cancelled', run: { status: 'cancelled', price_usd: '0.00' } });
    expect(await h.jobOf(run.run_id)).toBeUndefined();
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: run.run_id } })).settledAt).toBeNull();
  });

  it('refuses (409) to cancel a run whose hold is still pending: a release could beat the hold', async () => {
    const { clientId, runId } = await paidRun();
    // What a run recorded but not yet confirmed by the wallet looks like (start-run, pending-hold).
    await h.prisma.$executeRaw`UPDATE orchestrator.runs SET hold_pending = true WHERE id = ${runId}::uuid`;
    const refused = await rejection(h.orchestrator.cancelRun({ client_id: clientId, run_id: runId }));
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ message: `run ${runId} is still being recorded; try again in a moment` });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: 'queued',
      cancelRequestedAt: null,
    });
  });

  it('is the same 404 for another client as for an unknown run; 409 for a completed run', async () => {
    const { clientId, runId, jobId } = await paidRun();
    const stranger = await rejection(h.orchestrator.cancelRun({ client_id: randomUUID(), run_id: runId }));
    expect(stranger).toBeInstanceOf(NotFoundError);
    expect(stranger).toMatchObject({ message: `unknown run: ${runId}` });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('queued');

    const at = new Date().toISOString();
    await h.report({ event: 'completed', run_id: runId, job_id: jobId, attempt: 1, at, result: PII_RESULT });
    const finished = await rejection(h.orchestrator.cancelRun({ client_id: clientId, run_id: runId }));
    expect(finished).toBeInstanceOf(ConflictError);
    expect(finished).toMatchObject({
      message: `run ${runId} is already completed; only queued, retrying or running runs can be cancelled`,
    });
  });
});
