import { randomUUID } from 'node:crypto';
import { serviceClient } from '@svc/bus';
import { pollUntil } from '@svc/testkit';
import { MAX_EVENT_RUN_BYTES } from '../src/domain/run-finished';
import { redriveSettlements } from '../src/domain/settlement-sweep';
import { walletSettler } from '../src/handlers/bus-ports';
import { crtResult, type InProcessHarness, startInProcessHarness, WALLET_TIMEOUT_MS } from './harness';

// The orchestrator's RPC handlers (claimAttempt, reportRun) run in this process, and so do the
// wallet's real ones, on the same bus (a private stack's prefix and database); PostgreSQL and Redis
// are real. Nothing of ours is mocked.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

const at = (second: number) => `2026-09-15T12:00:${String(second).padStart(2, '0')}.000Z`;

/** The run's current job id (what its worker's job carries). */
async function jobIdOf(runId: string): Promise<string> {
  const { jobId } = await h.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { jobId: true } });
  if (jobId === null) throw new Error(`run ${runId} was never handed over`);
  return jobId;
}

/** A recorded crt run of a fresh client, and its current job id. */
async function crtRun() {
  const clientId = randomUUID();
  const { run } = await h.start(clientId);
  return { clientId, id: run.run_id, jobId: await jobIdOf(run.run_id) };
}

describe('orchestrator.claimAttempt and reportRun', () => {
  it('claims (running, attempt 1), then completes storing the result, and publishes run.finished', async () => {
    const { clientId, id, jobId } = await crtRun();
    await expect(h.claim(id, jobId)).resolves.toEqual({ go: true, attempt: 1 });
    const running = await h.orchestrator.getRun({ client_id: clientId, run_id: id });
    expect(running).toMatchObject({ status: 'running', attempts: 1, finished_at: null });
    expect(running.started_at).not.toBeNull();
    expect(running).not.toHaveProperty('result');

    const result = crtResult('example.com');
    const metrics = { provider: 'crt.sh', provider_ms: 12, cache: 'miss' as const };
    await expect(
      h.report({ event: 'completed', run_id: id, job_id: jobId, attempt: 1, at: at(2), result, metrics }),
    ).resolves.toEqual({ applied: true });
    const completed = await h.orchestrator.getRun({ client_id: clientId, run_id: id });
    expect(completed).toMatchObject({ status: 'completed', finished_at: at(2), result, attempts: 1 });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id } })).toMatchObject({ metrics, attempts: 1 });
    await pollUntil(() => h.finished.some((event) => event.run_id === id && event.status === 'completed'));
    // The event carries the owner and the very record getRun returns (the gateway skips its getRun).
    expect(h.finished.find((event) => event.run_id === id)).toEqual({
      run_id: id,
      status: 'completed',
      client_id: clientId,
      run: completed,
    });
    // Its result is recorded: the job, redelivered, is not run again.
    await expect(h.claim(id, jobId)).resolves.toEqual({ go: false, reason: 'final' });
  });

  it('omits the record from run.finished when it is larger than MAX_EVENT_RUN_BYTES', async () => {
    const { clientId, id, jobId } = await crtRun();
    const result = { ...crtResult('example.com'), summary: 'x'.repeat(MAX_EVENT_RUN_BYTES) };
    await expect(
      h.report({ event: 'completed', run_id: id, job_id: jobId, attempt: 1, at: at(2), result }),
    ).resolves.toEqual({ applied: true });
    await pollUntil(() => h.finished.some((event) => event.run_id === id));
    expect(h.finished.find((event) => event.run_id === id)).toEqual({
      run_id: id,
      status: 'completed',
      client_id: clientId,
    });
    // Stored whole all the same: the gateway loads it with getRun.
    await expect(h.orchestrator.getRun({ client_id: clientId, run_id: id })).resolves.toMatchObject({
      status: 'completed',
      result,
    });
  });

  it('a repeated completed (the worker asks again) changes nothing and only re-announces', async () => {
    const { clientId, id, jobId } = await crtRun();
    await h.claim(id, jobId);
    const result = crtResult('example.com');
    const report = { event: 'completed', run_id: id, job_id: jobId, attempt: 1, result } as const;
    await expect(h.report({ ...report, at: at(5) })).resolves.toEqual({ applied: true });
    const stored = await h.prisma.run.findUniqueOrThrow({ where: { id } });

    const announced = () => h.finished.filter((event) => event.run_id === id).length;
    await pollUntil(() => announced() >= 1);
    const before = announced();
    const other = { ...result, count: 0, observations: [] };
    await expect(h.report({ ...report, at: at(9), result: other })).resolves.toEqual({ applied: false });
    await pollUntil(() => announced() > before);
    // The first result and finish time stand, and the re-announcement carries them too.
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id } })).toEqual({ ...stored });
    const record = await h.orchestrator.getRun({ client_id: clientId, run_id: id });
    expect(record).toMatchObject({ result, finished_at: at(5) });
    expect(h.finished.filter((event) => event.run_id === id).at(-1)).toEqual({
      run_id: id,
      status: 'completed',
      client_id: clientId,
      run: record,
    });
  });

  it('goes through retrying (error kept, cleared by the next claim) to a failed run', async () => {
    const { clientId, id, jobId } = await crtRun();
    await h.claim(id, jobId);
    await expect(
      h.report({
        event: 'retrying',
        run_id: id,
        job_id: jobId,
        attempt: 1,
        at: at(2),
        error: 'browser crashed',
      }),
    ).resolves.toEqual({ applied: true });
    await expect(h.orchestrator.getRun({ client_id: clientId, run_id: id })).resolves.toMatchObject({
      status: 'retrying',
      status_message: 'retrying: attempt 1 failed (browser crashed); the next attempt starts after a backoff',
    });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id } })).lastError).toBe('browser crashed');

    // BullMQ retries the same job: a new attempt.
    await expect(h.claim(id, jobId)).resolves.toEqual({ go: true, attempt: 2 });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'running',
      lastError: null,
      attempts: 2,
    });
    // A late retrying of attempt 1 does not pull back the run attempt 2 is running.
    await expect(
      h.report({ event: 'retrying', run_id: id, job_id: jobId, attempt: 1, at: at(3), error: 'late' }),
    ).resolves.toEqual({ applied: false });

    const error = {
      code: 'provider_unavailable',
      message: 'crt providers unavailable: crt.sh: HTTP 502; certspotter: timeout',
    };
    await expect(
      h.report({ event: 'failed', run_id: id, job_id: jobId, attempt: 2, at: at(4), error }),
    ).resolves.toEqual({ applied: true });
    const failed = await h.orchestrator.getRun({ client_id: clientId, run_id: id });
    expect(failed).toMatchObject({ status: 'failed', error, finished_at: at(4), attempts: 2 });
    expect(failed).not.toHaveProperty('result');
    await pollUntil(() => h.finished.some((event) => event.run_id === id && event.status === 'failed'));
  });

  it('fails the run instead of storing a result that breaks CrtResult', async () => {
    const { clientId, id, jobId } = await crtRun();
    const bad = { ...crtResult('example.com'), live_hosts_verified: true };
    await h.report({ event: 'completed', run_id: id, job_id: jobId, attempt: 1, at: at(1), result: bad });
    const stored = await h.orchestrator.getRun({ client_id: clientId, run_id: id });
    expect(stored).toMatchObject({
      status: 'failed',
      error: { code: 'internal', message: 'internal error' },
    });
    expect(stored).not.toHaveProperty('result');
  });

  it('answers unknown for a run that does not exist, and drops its report', async () => {
    const runId = randomUUID();
    await expect(h.claim(runId, `run-${runId}-1`)).resolves.toEqual({ go: false, reason: 'unknown' });
    await expect(
      h.report({ event: 'cancelled', run_id: runId, job_id: `run-${runId}-1`, attempt: 1, at: at(1) }),
    ).resolves.toEqual({ applied: false });
  });

  it('refuses a superseded job: another hand-over is the run’s current one', async () => {
    const { id, jobId } = await crtRun();
    const stale = `run-${id}-0`;
    expect(stale).not.toBe(jobId);
    await expect(h.claim(id, stale)).resolves.toEqual({ go: false, reason: 'superseded' });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'queued',
      attempts: 0,
    });
  });

  it('stalled-job recovery: the same job claimed again is a new attempt (status_message says so)', async () => {
    const { clientId, id, jobId } = await crtRun();
    await h.claim(id, jobId);
    // The first worker died; BullMQ handed the job to another one, which claims it again.
    await expect(h.claim(id, jobId)).resolves.toEqual({ go: true, attempt: 2 });
    await expect(h.orchestrator.getRun({ client_id: clientId, run_id: id })).resolves.toMatchObject({
      status: 'running',
      attempts: 2,
      status_message: 'running (attempt 2; picked up again after the previous attempt stopped)',
    });
  });

  it('the first final report wins, even from a job superseded since (its job was lost with Redis)', async () => {
    const { clientId, id, jobId } = await crtRun();
    await h.claim(id, jobId);
    // The dispatcher saw the job missing and handed the run over again; the new job claims it.
    const next = `run-${id}-2`;
    await h.prisma.$executeRaw`
      UPDATE orchestrator.runs SET dispatches = 2, job_id = ${next} WHERE id = ${id}::uuid`;
    await expect(h.claim(id, next)).resolves.toEqual({ go: true, attempt: 2 });
    // The first worker still held its result and keeps reporting: it is recorded, not run again.
    const result = crtResult('example.com');
    await expect(
      h.report({ event: 'completed', run_id: id, job_id: jobId, attempt: 1, at: at(7), result }),
    ).resolves.toEqual({ applied: true });
    // The second worker's outcome changes nothing; its retrying note neither.
    await expect(
      h.report({ event: 'retrying', run_id: id, job_id: next, attempt: 2, at: at(8), error: 'x' }),
    ).resolves.toEqual({ applied: false });
    await expect(
      h.report({ event: 'completed', run_id: id, job_id: next, attempt: 2, at: at(9), result }),
    ).resolves.toEqual({ applied: false });
    await expect(h.orchestrator.getRun({ client_id: clientId, run_id: id })).resolves.toMatchObject({
      status: 'completed',
      finished_at: at(7),
      result,
    });
    await expect(h.claim(id, next)).resolves.toEqual({ go: false, reason: 'final' });
  });
});

describe('reportRun settles paid runs (wallet.settle, settled_at)', () => {
  const TEXT = 'Mail jane@example.com today.';
  const now = () => new Date().toISOString();
  const RESULT = {
    redacted_text: 'Mail [EMAIL] today.',
    findings: [],
    counts: { email: 1, phone: 0, iban: 0, card: 0 },
    characters: TEXT.length,
  };

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
    return { clientId, runId: run.run_id, jobId: await jobIdOf(run.run_id), price: quote.price_usd };
  }

  const ledger = (clientId: string, runId: string) =>
    h.wallet.runLedger({ client_id: clientId, run_id: runId });
  const settledAt = async (runId: string) =>
    (await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).settledAt;

  it('releases the hold of a failed run, naming the error code, and records settled_at', async () => {
    const { clientId, runId, jobId } = await paidRun();
    const error = { code: 'internal', message: 'internal error' };
    await h.report({ event: 'failed', run_id: runId, job_id: jobId, attempt: 1, at: now(), error });
    await pollUntil(async () => ((await settledAt(runId)) === null ? undefined : true), {
      what: 'settled_at',
    });
    const lines = (await ledger(clientId, runId)).lines;
    expect(lines.map((line) => [line.kind, line.note])).toEqual([
      ['hold', `hold for run ${runId}`],
      ['release', 'run failed: internal'],
    ]);
  });

  it('re-drives the settlement of a run that finished while the wallet was down: captured exactly once', async () => {
    const { clientId, runId, jobId } = await paidRun();
    await h.claim(runId, jobId);
    await h.stopService('wallet');
    try {
      // The worker is answered at once: the settlement does not wait for the wallet.
      await expect(
        h.report({ event: 'completed', run_id: runId, job_id: jobId, attempt: 1, at: now(), result: RESULT }),
      ).resolves.toEqual({ applied: true });
      const wallet = serviceClient(h.bus, 'wallet', { timeoutMs: WALLET_TIMEOUT_MS });
      const deps = { prisma: h.prisma, settle: walletSettler(wallet), logger: h.log.logger, afterMs: 0 };
      // The sweep finds it and cannot settle it yet.
      await expect(redriveSettlements(deps)).resolves.not.toContain(runId);
      expect(await settledAt(runId)).toBeNull();
      await h.startService('wallet');
      // Every sweep asks until the wallet confirms; then the run is left alone.
      await pollUntil(async () => ((await redriveSettlements(deps)).includes(runId) ? true : undefined), {
        what: 'the re-driven settlement',
      });
      expect(await settledAt(runId)).toBeInstanceOf(Date);
      await expect(redriveSettlements(deps)).resolves.not.toContain(runId);
    } finally {
      await h.startService('wallet').catch(() => undefined);
    }
    const settled = await ledger(clientId, runId);
    expect(settled).toMatchObject({ settled: true, held_usd: '0.00' });
    expect(settled.lines.map((line) => line.kind)).toEqual(['hold', 'capture']);
    expect(await h.wallet.balance({ client_id: clientId })).toMatchObject({
      spent_usd: settled.charged_usd,
    });
    // Asked again (a sweep of another replica, a repeated report): nothing more is written.
    await expect(
      h.report({ event: 'completed', run_id: runId, job_id: jobId, attempt: 1, at: now(), result: RESULT }),
    ).resolves.toEqual({ applied: false });
    await expect(
      h.wallet.settle({ run_id: runId, client_id: clientId, outcome: 'capture', reason: 'again' }),
    ).resolves.toEqual({ applied: false });
    expect((await ledger(clientId, runId)).lines).toHaveLength(2);
  });
});
