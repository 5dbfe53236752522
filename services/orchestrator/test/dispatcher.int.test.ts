import { randomUUID } from 'node:crypto';
import { type Bus, createBus, createRpcClient } from '@svc/bus';
import { runJobId } from '../src/domain/dispatch';
import { sweepRuns } from '../src/domain/dispatcher';
import { crtJobEnqueuer, runFinishedPublisher } from '../src/handlers/bus-ports';
import { orchestratorHandlers } from '../src/handlers/rpc';
import {
  crtResult,
  deadRedisUrl,
  eventually,
  type InProcessHarness,
  startInProcessHarness,
  WALLET_TIMEOUT_MS,
} from './harness';

// The orchestrator's RPC handlers and report consumer run in this process; the wallet is a real
// process of a private stack; PostgreSQL and Redis are real. Nothing of ours is mocked.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

describe('dispatcher', () => {
  let deadBus: Bus;

  beforeAll(async () => {
    deadBus = createBus({ redisUrl: await deadRedisUrl(), prefix: h.stack.prefix, logger: h.log.logger });
  });

  afterAll(() => deadBus?.close());

  function sweep(staleAfterMs = 900_000) {
    return sweepRuns({
      prisma: h.prisma,
      enqueueCrt: crtJobEnqueuer(h.bus),
      publishFinished: runFinishedPublisher(h.bus),
      logger: h.log.logger,
      staleAfterMs,
    });
  }

  it('queues a run whose enqueue failed after the commit (answered normally, left undispatched)', async () => {
    // The same handlers, but the queue side on a Redis that does not answer.
    const handlers = orchestratorHandlers({
      prisma: h.prisma,
      bus: deadBus,
      wallet: createRpcClient(h.bus, 'wallet', { timeoutMs: WALLET_TIMEOUT_MS }),
      walletTimeoutMs: WALLET_TIMEOUT_MS,
      logger: h.log.logger,
    });
    const clientId = randomUUID();
    const answer = await handlers.startCrtRun(
      {
        client_id: clientId,
        client_type: 'api',
        input: { apex: 'example.net', include_first_seen: true, limit: 3 },
      },
      { deadline: Date.now() + 10_000, requestId: 'test' },
    );
    const runId = answer.run.run_id;
    expect(answer).toMatchObject({ replay: false, run: { status: 'queued' } });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: 'queued',
      dispatchedAt: null,
    });
    expect(await h.jobOf(runId)).toBeUndefined();

    const swept = await sweep();
    expect(swept.queued).toContain(runId);
    expect((await h.jobOf(runId))?.data).toEqual({
      run_id: runId,
      apex: 'example.net',
      include_first_seen: true,
      limit: 3,
    });
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).dispatchedAt).toBeInstanceOf(
      Date,
    );
  });

  it('queues again a queued run whose job was lost more than 60 s after it was handed over', async () => {
    const { run } = await h.start(randomUUID());
    const id = run.run_id;
    await h.crtQueue.remove(runJobId(id));
    expect((await sweep()).queued).not.toContain(id);
    await h.prisma
      .$executeRaw`UPDATE orchestrator.runs SET dispatched_at = now() - interval '2 minutes' WHERE id = ${id}::uuid`;
    expect((await sweep()).queued).toContain(id);
    expect(await h.jobOf(id)).toBeDefined();
  });

  it('fails a running run with no report within RUN_STALE_AFTER_MS, and then ignores its late report', async () => {
    const clientId = randomUUID();
    const { run } = await h.start(clientId);
    const id = run.run_id;
    await h.report({ event: 'started', run_id: id, attempt: 1, at: new Date().toISOString() });
    expect((await sweep()).failed.map((f) => f.run_id)).not.toContain(id);

    await h.prisma
      .$executeRaw`UPDATE orchestrator.runs SET updated_at = now() - interval '16 minutes' WHERE id = ${id}::uuid`;
    expect((await sweep()).failed).toContainEqual({ run_id: id, status: 'failed' });
    const failed = await h.orchestrator.call('getRun', { client_id: clientId, run_id: id });
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'internal', message: 'run stalled: no report from a worker within 900 s' },
    });
    await eventually(() => h.finished.some((event) => event.run_id === id && event.status === 'failed'));

    const late = crtResult('example.com');
    await expect(
      h.report({ event: 'completed', run_id: id, attempt: 1, at: new Date().toISOString(), result: late }),
    ).resolves.toEqual({ applied: false });
    expect((await h.orchestrator.call('getRun', { client_id: clientId, run_id: id })).status).toBe('failed');
  });
});
