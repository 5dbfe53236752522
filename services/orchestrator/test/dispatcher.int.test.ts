import { randomUUID } from 'node:crypto';
import { type Bus, createBus } from '@svc/bus';
import { type MessageCatalog, messageCatalog } from '@svc/capabilities';
import { heldRunsKey, WORKER_HEARTBEAT_TTL_MS } from '@svc/contracts';
import { type PrivateRedis, pollUntil, startPrivateRedis } from '@svc/testkit';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { runJobId } from '../src/domain/dispatch';
import { createSweep, type SweepDeps, startDispatcher } from '../src/domain/dispatcher';
import { HAND_OVER_GRACE_MS } from '../src/domain/handover';
import { inputHash } from '../src/domain/request-hash';
import { orchestratorHandlers } from '../src/handlers/rpc';
import { deadRedisUrl, type InProcessHarness, startInProcessHarness } from './harness';
import { sweepDeps as sweepDepsOf } from './sweep-deps';

// The orchestrator's RPC handlers and dispatcher run in this process, and so do the registry's and
// the wallet's real handlers, on the same bus of a private stack; PostgreSQL and Redis are real.
// Nothing of ours is mocked.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

function sweepDeps(bus: Bus<MessageCatalog> = h.bus, extra: Partial<SweepDeps> = {}): SweepDeps {
  return sweepDepsOf(h, bus, extra);
}

async function rowOf(runId: string) {
  return h.prisma.run.findUniqueOrThrow({ where: { id: runId } });
}

describe('dispatcher: jobs Redis no longer has', () => {
  let deadBus: Bus<MessageCatalog>;

  beforeAll(async () => {
    deadBus = createBus({
      catalog: messageCatalog,
      redisUrl: await deadRedisUrl(),
      prefix: h.prefix,
      logger: h.log.logger,
      encryptionKeys: h.busEncryptionKeys,
    });
  });

  afterAll(() => deadBus?.close());

  it('hands a run whose job vanished over again, under a new job id, within seconds', async () => {
    const { run } = await h.start(randomUUID());
    const id = run.run_id;
    const first = runJobId(id, 1);
    expect((await rowOf(id)).jobId).toBe(first);
    expect(await h.crtQueue.getJob(first)).toBeDefined();

    // A running dispatcher with the production grace (2 s): the job is deleted behind its back.
    const dispatcher = startDispatcher({
      intervalMs: 200,
      logger: h.log.logger,
      sweep: createSweep(sweepDeps(h.bus, { handOverGraceMs: HAND_OVER_GRACE_MS })),
    });
    try {
      await h.crtQueue.remove(first);
      const row = await pollUntil(async () => {
        const now = await rowOf(id);
        return now.dispatches === 2 ? now : undefined;
      });
      expect(row).toMatchObject({ status: 'queued', jobId: runJobId(id, 2) });
      expect((await h.crtQueue.getJob(runJobId(id, 2)))?.data).toEqual({
        run_id: id,
        apex: 'example.com',
        include_first_seen: false,
        limit: 100,
      });
    } finally {
      await dispatcher.close();
    }
  });

  it('hands over again a run whose job failed for good in the queue (a worker gave up)', async () => {
    const { run } = await h.start(randomUUID());
    const id = run.run_id;
    // A worker that fails every crt job at once and for good (UnrecoverableError: no retry).
    const worker = new Worker(
      'jobs.capability.crt',
      async () => {
        throw new UnrecoverableError('test: failed for good');
      },
      { connection: { url: h.redisUrl }, prefix: h.prefix },
    );
    try {
      await pollUntil(async () =>
        (await (await h.crtQueue.getJob(runJobId(id, 1)))?.getState()) === 'failed' ? true : undefined,
      );
    } finally {
      await worker.close();
    }
    expect((await createSweep(sweepDeps())()).handedOver).toContain(id);
    expect(await rowOf(id)).toMatchObject({ status: 'queued', dispatches: 2, jobId: runJobId(id, 2) });
    expect(await h.crtQueue.getJob(runJobId(id, 2))).toBeDefined();
  });

  it('leaves a run whose job is waiting alone, however often it sweeps', async () => {
    const { run } = await h.start(randomUUID());
    const sweep = createSweep(sweepDeps());
    for (let i = 0; i < 3; i += 1) {
      const swept = await sweep();
      // The first pass checked every live run (it completed: fullCheck), later ones a page each.
      expect(swept.fullCheck).toBe(i === 0);
      expect(swept.handedOver).not.toContain(run.run_id);
    }
    expect(await rowOf(run.run_id)).toMatchObject({ dispatches: 1, jobId: runJobId(run.run_id, 1) });
  });

  it('queues a run whose first enqueue failed (Redis down after the INSERT): answered normally', async () => {
    const handlers = orchestratorHandlers(h.handlerDeps(deadBus));
    const answer = await handlers.startCrtRun(
      {
        client_id: randomUUID(),
        client_type: 'api',
        input: { apex: 'example.net', include_first_seen: true, limit: 3 },
      },
      { deadline: Date.now() + 10_000, requestId: 'test' },
    );
    const id = answer.run.run_id;
    expect(answer).toMatchObject({ replay: false, run: { status: 'queued' } });
    expect(await h.crtQueue.getJob(runJobId(id, 1))).toBeUndefined();

    expect((await createSweep(sweepDeps())()).handedOver).toContain(id);
    expect((await h.crtQueue.getJob(runJobId(id, 2)))?.data).toEqual({
      run_id: id,
      apex: 'example.net',
      include_first_seen: true,
      limit: 3,
    });
  });

  it('changes nothing while Redis does not answer, then hands over once it does', async () => {
    const { run } = await h.start(randomUUID());
    await h.crtQueue.remove(runJobId(run.run_id, 1));
    const blind = await createSweep(sweepDeps(deadBus))();
    expect(blind.handedOver).toEqual([]);
    expect((await rowOf(run.run_id)).dispatches).toBe(1);
    expect((await createSweep(sweepDeps())()).handedOver).toContain(run.run_id);
  });

  it('fails a run whose hand-overs ran out (internal), tells waiters and releases its hold', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const text = 'Mail jane@example.com today.';
    const quote = await h.quote(clientId, 'pii-redact', { text });
    const { run } = await h.run({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text },
      quote_id: quote.quote_id,
      idempotency_key: `cap-${randomUUID()}`,
    });
    const id = run.run_id;
    // Four more hand-overs were lost before this one (as the row says), and now its job is gone too.
    const last = runJobId(id, 5);
    await h.prisma
      .$executeRaw`UPDATE orchestrator.runs SET dispatches = 5, job_id = ${last} WHERE id = ${id}::uuid`;

    const swept = await createSweep(sweepDeps())();
    expect(swept.finished).toContain(id);
    expect(await rowOf(id)).toMatchObject({
      status: 'failed',
      dispatches: 5,
      error: {
        code: 'internal',
        message: 'run could not be kept on a worker queue: its job was lost 5 times',
      },
    });
    await pollUntil(() => h.finished.some((event) => event.run_id === id && event.status === 'failed'));
    await pollUntil(async () => (await h.wallet.runLedger({ client_id: clientId, run_id: id })).settled);
    expect(await h.wallet.runLedger({ client_id: clientId, run_id: id })).toMatchObject({
      held_usd: '0.00',
      charged_usd: '0.00',
    });
  });

  it('leaves a claimed run whose job vanished alone while a worker holds it; hands it over once the hold lapses', async () => {
    const { run } = await h.start(randomUUID());
    const id = run.run_id;
    await expect(h.claim(id, runJobId(id, 1))).resolves.toEqual({ go: true, attempt: 1 });
    await h.crtQueue.remove(runJobId(id, 1));
    // What a worker's heartbeat writes while it computes the run or holds its unacknowledged result.
    const held = heldRunsKey(h.bus.prefix);
    await h.bus.redis.zadd(held, Date.now() + 60_000, id);
    try {
      const sweep = createSweep(sweepDeps());
      for (let i = 0; i < 2; i += 1) {
        const swept = await sweep();
        expect(swept.held).toContain(id);
        expect(swept.handedOver).not.toContain(id);
      }
      expect(await rowOf(id)).toMatchObject({ status: 'running', dispatches: 1, jobId: runJobId(id, 1) });

      // The worker stopped announcing it (died): its last score is in the past.
      await h.bus.redis.zadd(held, Date.now() - 1, id);
      const swept = await createSweep(sweepDeps())();
      expect(swept.held).not.toContain(id);
      expect(swept.handedOver).toContain(id);
      expect(await rowOf(id)).toMatchObject({ status: 'running', dispatches: 2, jobId: runJobId(id, 2) });
      expect(await h.crtQueue.getJob(runJobId(id, 2))).toBeDefined();
    } finally {
      await h.bus.redis.zrem(held, id);
    }
  });

  it('ends a running run whose cancel was asked and whose job vanished as cancelled, not run again', async () => {
    const { run } = await h.start(randomUUID());
    const id = run.run_id;
    await h.prisma.$executeRaw`
      UPDATE orchestrator.runs SET status = 'running', attempts = 1, cancel_requested_at = now()
      WHERE id = ${id}::uuid`;
    await h.crtQueue.remove(runJobId(id, 1));
    expect((await createSweep(sweepDeps())()).finished).toContain(id);
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled', dispatches: 1 });
    expect(await h.crtQueue.getJob(runJobId(id, 2))).toBeUndefined();
  });
});

describe('dispatcher: Redis restarted without its data', () => {
  let redis: PrivateRedis;
  let bus: Bus<MessageCatalog>;
  let queue: Queue;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    bus = createBus({
      catalog: messageCatalog,
      redisUrl: redis.url,
      prefix: h.prefix,
      logger: h.log.logger,
      encryptionKeys: h.busEncryptionKeys,
    });
    queue = new Queue('jobs.capability.crt', { connection: { url: redis.url }, prefix: h.prefix });
  });

  afterAll(async () => {
    await queue?.close();
    await bus?.close();
    await redis?.stop();
  });

  it('hands every live run over again in one pass once Redis comes back empty', async () => {
    // Runs queued on this Redis (the wallet stays on the stack's): their jobs live only here.
    const handlers = orchestratorHandlers(h.handlerDeps(bus));
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await handlers.startCrtRun(
        {
          client_id: randomUUID(),
          client_type: 'api',
          input: { apex: `example${i}.com`, include_first_seen: false, limit: 100 },
        },
        { deadline: Date.now() + 10_000, requestId: `flush-${i}` },
      );
      ids.push(answer.run.run_id);
    }
    for (const id of ids) expect(await queue.getJob(runJobId(id, 1))).toBeDefined();
    const sweep = createSweep(sweepDeps(bus));
    // The first pass of a process checks everything: these jobs are all there. (Runs of the other
    // tests queued on the stack's Redis look missing here and are handed over: not ours to check.)
    const first = await sweep();
    expect(first.fullCheck).toBe(true);
    for (const id of ids) expect(first.handedOver).not.toContain(id);
    expect((await sweep()).fullCheck).toBe(false);

    await redis.restartEmpty();
    const swept = await pollUntil(async () => {
      const result = await sweep();
      return result.fullCheck ? result : undefined;
    });
    expect(swept.handedOver).toEqual(expect.arrayContaining(ids));
    for (const id of ids) {
      expect(await rowOf(id)).toMatchObject({ status: 'queued', dispatches: 2, jobId: runJobId(id, 2) });
      expect(await queue.getJob(runJobId(id, 2))).toBeDefined();
    }
  });

  it('hands a queued run over at once, a claimed one only after a heartbeat TTL, a re-announced one not', async () => {
    const handlers = orchestratorHandlers(h.handlerDeps(bus));
    const start = async (apex: string) =>
      (
        await handlers.startCrtRun(
          {
            client_id: randomUUID(),
            client_type: 'api',
            input: { apex, include_first_seen: false, limit: 3 },
          },
          { deadline: Date.now() + 10_000, requestId: apex },
        )
      ).run.run_id;
    const queuedId = await start('queued.example');
    const claimedId = await start('claimed.example');
    const heldId = await start('held.example');
    for (const id of [claimedId, heldId]) {
      await expect(h.claim(id, runJobId(id, 1))).resolves.toEqual({ go: true, attempt: 1 });
    }
    // The dispatcher's clock, moved by hand: the grace is measured on it, never on the wall clock.
    let clock = Date.now();
    const sweep = createSweep(
      sweepDeps(bus, { restartGraceMs: WORKER_HEARTBEAT_TTL_MS, now: () => new Date(clock) }),
    );
    const first = await sweep();
    for (const id of [queuedId, claimedId, heldId]) {
      expect(first.handedOver).not.toContain(id);
      expect(first.deferred).not.toContain(id);
    }

    await redis.restartEmpty();
    clock += 60_000;
    const swept = await pollUntil(async () => {
      const result = await sweep();
      return result.fullCheck ? result : undefined;
    });
    expect(swept.handedOver).toContain(queuedId);
    expect(swept.deferred).toEqual(expect.arrayContaining([claimedId, heldId]));
    expect(await rowOf(queuedId)).toMatchObject({ dispatches: 2, jobId: runJobId(queuedId, 2) });
    // The worker holding `heldId` beats again on the new Redis; nobody announces `claimedId`.
    await bus.redis.zadd(heldRunsKey(bus.prefix), Date.now() + 60_000, heldId);

    clock += WORKER_HEARTBEAT_TTL_MS - 1;
    const inGrace = await sweep();
    expect(inGrace.handedOver).not.toContain(claimedId);
    expect(inGrace.deferred).toContain(claimedId);
    expect(inGrace.held).toContain(heldId);
    expect(await rowOf(claimedId)).toMatchObject({ status: 'running', dispatches: 1 });

    clock += 1;
    const after = await sweep();
    expect(after.fullCheck).toBe(true);
    expect(after.handedOver).toContain(claimedId);
    expect(after.held).toContain(heldId);
    expect(await rowOf(claimedId)).toMatchObject({
      status: 'running',
      dispatches: 2,
      jobId: runJobId(claimedId, 2),
    });
    expect(await queue.getJob(runJobId(claimedId, 2))).toBeDefined();
    expect(await rowOf(heldId)).toMatchObject({
      status: 'running',
      dispatches: 1,
      jobId: runJobId(heldId, 1),
    });
  });
});

describe('dispatcher: holds', () => {
  const TEXT = 'Mail jane@example.com today.';

  it('releases a hold whose run was never recorded once it is older than ORPHAN_HOLD_AFTER_MS', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const quote = await h.quote(clientId, 'pii-redact', { text: TEXT });
    // What an undone pending run whose hold the wallet had made leaves behind (uploads refusal).
    await h.wallet.holdForRun({
      client_id: clientId,
      run_id: quote.quote_id,
      quote_id: quote.quote_id,
      slug: 'pii-redact',
      input_hash: inputHash({ text: TEXT, types: ['email', 'phone', 'iban', 'card'], style: 'label' }),
    });
    // And a hold whose run exists (queued): not an orphan, whatever its age.
    const liveQuote = await h.quote(clientId, 'pii-redact', { text: TEXT });
    const live = await h.run({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: liveQuote.quote_id,
      idempotency_key: `live-${randomUUID()}`,
    });

    expect((await createSweep(sweepDeps())()).orphansReleased).not.toContain(quote.quote_id);
    const later = () => new Date(Date.now() + 11 * 60_000);
    const swept = await createSweep(sweepDeps(h.bus, { now: later }))();
    expect(swept.orphansReleased).toContain(quote.quote_id);
    expect(swept.orphansReleased).not.toContain(live.run.run_id);
    expect(await h.wallet.runLedger({ client_id: clientId, run_id: quote.quote_id })).toMatchObject({
      held_usd: '0.00',
      settled: true,
    });
    expect(await h.wallet.runLedger({ client_id: clientId, run_id: live.run.run_id })).toMatchObject({
      held_usd: '0.002',
      settled: false,
    });
  });
});
