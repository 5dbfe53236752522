import { randomUUID } from 'node:crypto';
import { pollUntil } from '@svc/testkit';
import { MAX_EVENT_RUN_BYTES } from '../src/domain/run-finished';
import { crtResult, type InProcessHarness, startInProcessHarness } from './harness';

// The orchestrator's RPC handlers and report consumer run in this process; the wallet is a real
// process of a private stack; PostgreSQL and Redis are real. Nothing of ours is mocked.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

describe('runs.report', () => {
  const at = (second: number) => `2026-09-15T12:00:${String(second).padStart(2, '0')}.000Z`;

  it('applies started then completed, storing the result, and publishes run.finished', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const id = run.run_id;

    await expect(h.report({ event: 'started', run_id: id, attempt: 1, at: at(1) })).resolves.toEqual({
      applied: true,
    });
    const running = await h.orchestrator.call('getRun', { client_id: clientId, run_id: id });
    expect(running).toMatchObject({ status: 'running', started_at: at(1), finished_at: null });
    expect(running).not.toHaveProperty('result');

    const result = crtResult('example.com');
    const metrics = { provider: 'crt.sh', provider_ms: 12, cache: 'miss' as const };
    await expect(
      h.report({ event: 'completed', run_id: id, attempt: 1, at: at(2), result, metrics }),
    ).resolves.toEqual({ applied: true });
    const completed = await h.orchestrator.call('getRun', { client_id: clientId, run_id: id });
    expect(completed).toMatchObject({ status: 'completed', started_at: at(1), finished_at: at(2), result });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id } })).toMatchObject({ metrics, attempts: 1 });
    await pollUntil(() => h.finished.some((event) => event.run_id === id && event.status === 'completed'));
    // The event carries the owner and the very record getRun returns (the gateway skips its getRun).
    expect(h.finished.find((event) => event.run_id === id)).toEqual({
      run_id: id,
      status: 'completed',
      client_id: clientId,
      run: completed,
    });
  });

  it('omits the record from run.finished when it is larger than MAX_EVENT_RUN_BYTES', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const id = run.run_id;
    const result = { ...crtResult('example.com'), summary: 'x'.repeat(MAX_EVENT_RUN_BYTES) };
    await expect(
      h.report({ event: 'completed', run_id: id, attempt: 1, at: at(2), result }),
    ).resolves.toEqual({
      applied: true,
    });
    await pollUntil(() => h.finished.some((event) => event.run_id === id));
    expect(h.finished.find((event) => event.run_id === id)).toEqual({
      run_id: id,
      status: 'completed',
      client_id: clientId,
    });
    // Stored whole all the same: the gateway loads it with getRun.
    await expect(h.orchestrator.call('getRun', { client_id: clientId, run_id: id })).resolves.toMatchObject({
      status: 'completed',
      result,
    });
  });

  it('ignores a started that arrives after completed, and a redelivered completed only re-announces', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const id = run.run_id;
    const result = crtResult('example.com');

    await expect(
      h.report({ event: 'completed', run_id: id, attempt: 1, at: at(5), result }),
    ).resolves.toEqual({
      applied: true,
    });
    await expect(h.report({ event: 'started', run_id: id, attempt: 1, at: at(4) })).resolves.toEqual({
      applied: false,
    });
    const stored = await h.prisma.run.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ status: 'completed', startedAt: null, finishedAt: new Date(at(5)) });

    const announced = () => h.finished.filter((event) => event.run_id === id).length;
    await pollUntil(() => announced() >= 1);
    const before = announced();
    const other = { ...result, count: 0, observations: [] };
    await expect(
      h.report({ event: 'completed', run_id: id, attempt: 1, at: at(9), result: other }, 'redelivered'),
    ).resolves.toEqual({ applied: false });
    await pollUntil(() => announced() > before);
    // The first result and finish time stand, and the re-announcement carries them too.
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id } })).toEqual({ ...stored });
    const record = await h.orchestrator.call('getRun', { client_id: clientId, run_id: id });
    expect(record).toMatchObject({ result, finished_at: at(5) });
    const events = h.finished.filter((event) => event.run_id === id);
    expect(events.at(-1)).toEqual({ run_id: id, status: 'completed', client_id: clientId, run: record });
  });

  it('goes through retrying to a failed run with its error', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const id = run.run_id;
    await h.report({ event: 'started', run_id: id, attempt: 1, at: at(1) });
    await expect(
      h.report({ event: 'retrying', run_id: id, attempt: 1, at: at(2), error: 'worker lost its connection' }),
    ).resolves.toEqual({ applied: true });
    expect((await h.orchestrator.call('getRun', { client_id: clientId, run_id: id })).status).toBe(
      'retrying',
    );
    await expect(h.report({ event: 'started', run_id: id, attempt: 2, at: at(3) })).resolves.toEqual({
      applied: true,
    });

    const error = {
      code: 'provider_unavailable',
      message: 'crt providers unavailable: crt.sh: HTTP 502; certspotter: timeout',
    };
    await expect(h.report({ event: 'failed', run_id: id, attempt: 2, at: at(4), error })).resolves.toEqual({
      applied: true,
    });
    const failed = await h.orchestrator.call('getRun', { client_id: clientId, run_id: id });
    expect(failed).toMatchObject({ status: 'failed', error, started_at: at(3), finished_at: at(4) });
    expect(failed).not.toHaveProperty('result');
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id } })).attempts).toBe(2);
    await pollUntil(() => h.finished.some((event) => event.run_id === id && event.status === 'failed'));
    expect(h.finished.find((event) => event.run_id === id)).toEqual({
      run_id: id,
      status: 'failed',
      client_id: clientId,
      run: failed,
    });
  });

  it('fails the run instead of storing a result that breaks CrtResult', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const bad = { ...crtResult('example.com'), live_hosts_verified: true };
    await h.report({ event: 'completed', run_id: run.run_id, attempt: 1, at: at(1), result: bad });
    const stored = await h.orchestrator.call('getRun', { client_id: clientId, run_id: run.run_id });
    expect(stored).toMatchObject({
      status: 'failed',
      error: { code: 'internal', message: 'internal error' },
    });
    expect(stored).not.toHaveProperty('result');
  });

  it('drops a report for an unknown run', async () => {
    await expect(
      h.report({ event: 'started', run_id: randomUUID(), attempt: 1, at: at(1) }),
    ).resolves.toEqual({
      applied: false,
    });
  });

  it('stalled-job recovery: a started of a newer attempt moves a running run on (attempts, message)', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const id = run.run_id;
    await h.report({ event: 'started', run_id: id, attempt: 1, at: at(1) });
    // The first worker died; BullMQ handed the job to another one: attempt 2 starts.
    await expect(h.report({ event: 'started', run_id: id, attempt: 2, at: at(40) })).resolves.toEqual({
      applied: true,
    });
    await expect(h.orchestrator.call('getRun', { client_id: clientId, run_id: id })).resolves.toMatchObject({
      status: 'running',
      attempts: 2,
      started_at: at(40),
      status_message: 'running (attempt 2; picked up again after the previous attempt stopped)',
    });
    // A redelivered started of that attempt changes nothing.
    await expect(
      h.report({ event: 'started', run_id: id, attempt: 2, at: at(41) }, 'again'),
    ).resolves.toEqual({
      applied: false,
    });
  });

  it('retrying keeps the error for status_message; the next started clears it', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const id = run.run_id;
    await h.report({ event: 'started', run_id: id, attempt: 1, at: at(1) });
    await h.report({ event: 'retrying', run_id: id, attempt: 1, at: at(2), error: 'browser crashed' });
    await expect(h.orchestrator.call('getRun', { client_id: clientId, run_id: id })).resolves.toMatchObject({
      status: 'retrying',
      status_message: 'retrying: attempt 1 failed (browser crashed); the next attempt starts after a backoff',
    });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id } })).lastError).toBe('browser crashed');
    await h.report({ event: 'started', run_id: id, attempt: 2, at: at(3) });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id } })).lastError).toBeNull();
  });
});

describe('runs.report settles paid runs', () => {
  const TEXT = 'Mail jane@example.com today.';
  const at = () => new Date().toISOString();

  async function paidRun() {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const quote = await h.quote(clientId, 'pii-redact', { text: TEXT });
    const { run } = await h.run({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: quote.quote_id,
      idempotency_key: `settle-${randomUUID()}`,
    });
    return { clientId, runId: run.run_id };
  }

  const settleJob = async (runId: string) => (await h.queue('wallet.settle').getJob(`settle-${runId}`))?.data;

  it('releases the hold of a failed run, naming the error code', async () => {
    const { clientId, runId } = await paidRun();
    const error = { code: 'internal', message: 'internal error' };
    await h.report({ event: 'failed', run_id: runId, attempt: 1, at: at(), error });
    expect(await settleJob(runId)).toEqual({
      run_id: runId,
      client_id: clientId,
      outcome: 'release',
      reason: 'run failed: internal',
    });
    await pollUntil(
      async () => (await h.wallet.call('runLedger', { client_id: clientId, run_id: runId })).settled,
    );
  });

  it('queues the settlement again when a redelivered report finds it was never queued', async () => {
    const { runId } = await paidRun();
    const result = {
      redacted_text: 'Mail [EMAIL] today.',
      findings: [],
      counts: { email: 1, phone: 0, iban: 0, card: 0 },
      characters: TEXT.length,
    };
    await h.report({ event: 'completed', run_id: runId, attempt: 1, at: at(), result });
    expect(await settleJob(runId)).toMatchObject({ outcome: 'capture' });
    // What Redis failing between the final UPDATE and the enqueue leaves behind.
    await pollUntil(
      async () => (await h.queue('wallet.settle').getJob(`settle-${runId}`))?.finishedOn !== undefined,
    );
    await h.queue('wallet.settle').remove(`settle-${runId}`);
    await h.prisma
      .$executeRaw`UPDATE orchestrator.runs SET settle_queued_at = NULL WHERE id = ${runId}::uuid`;

    await expect(
      h.report({ event: 'completed', run_id: runId, attempt: 1, at: at(), result }, 'redelivered'),
    ).resolves.toEqual({ applied: false });
    expect(await settleJob(runId)).toMatchObject({ outcome: 'capture' });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).settleQueuedAt).toBeInstanceOf(
      Date,
    );
  });
});
