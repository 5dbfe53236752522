import { randomUUID } from 'node:crypto';
import { type Bus, createBus } from '@svc/bus';
import { type MessageCatalog, messageCatalog } from '@svc/capabilities';
import { pollUntil } from '@svc/testkit';
import { runJobId } from '../src/domain/dispatch';
import { sweepRuns } from '../src/domain/dispatcher';
import { inputHash } from '../src/domain/request-hash';
import { OrphanHoldScanner } from '../src/domain/settlement-sweep';
import { capabilityJobEnqueuer, runFinishedPublisher, settleEnqueuer } from '../src/handlers/bus-ports';
import { orchestratorHandlers } from '../src/handlers/rpc';
import { crtResult, deadRedisUrl, type InProcessHarness, startInProcessHarness } from './harness';

// The orchestrator's RPC handlers and report consumer run in this process; the wallet is a real
// process of a private stack; PostgreSQL and Redis are real. Nothing of ours is mocked.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

describe('dispatcher', () => {
  let deadBus: Bus<MessageCatalog>;

  beforeAll(async () => {
    deadBus = createBus({
      catalog: messageCatalog,
      redisUrl: await deadRedisUrl(),
      prefix: h.stack.prefix,
      logger: h.log.logger,
      encryptionKeys: h.stack.busEncryptionKeys,
    });
  });

  afterAll(() => deadBus?.close());

  function sweep(staleAfterMs = 900_000, now?: () => Date) {
    return sweepRuns({
      prisma: h.prisma,
      enqueue: capabilityJobEnqueuer(h.bus),
      enqueueSettle: settleEnqueuer(h.bus),
      orphanHolds: new OrphanHoldScanner(
        async (olderThan, limit, after) =>
          (
            await h.wallet.call('openHolds', {
              older_than: olderThan.toISOString(),
              limit,
              ...(after === undefined ? {} : { after }),
            })
          ).holds,
      ),
      publishFinished: runFinishedPublisher(h.bus),
      logger: h.log.logger,
      staleAfterMs,
      orphanHoldAfterMs: 600_000,
      ...(now === undefined ? {} : { now }),
    });
  }

  it('queues a run whose enqueue failed after the commit (answered normally, left undispatched)', async () => {
    // The same handlers, but the queue side on a Redis that does not answer.
    const handlers = orchestratorHandlers(h.handlerDeps(deadBus));
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
    await pollUntil(() => h.finished.some((event) => event.run_id === id && event.status === 'failed'));

    const late = crtResult('example.com');
    await expect(
      h.report({ event: 'completed', run_id: id, attempt: 1, at: new Date().toISOString(), result: late }),
    ).resolves.toEqual({ applied: false });
    expect((await h.orchestrator.call('getRun', { client_id: clientId, run_id: id })).status).toBe('failed');
  });

  describe('every capability and the money', () => {
    const TEXT = 'Mail jane@example.com today.';

    async function quoted() {
      const clientId = await h.client({ balanceUsd: '1.00' });
      const quote = await h.quote(clientId, 'pii-redact', { text: TEXT });
      return { clientId, quote };
    }

    async function paidRun(bus = h.bus) {
      const { clientId, quote } = await quoted();
      const handlers = orchestratorHandlers(h.handlerDeps(bus));
      const { run } = await handlers.startRun(
        {
          client_id: clientId,
          slug: 'pii-redact',
          input: { text: TEXT },
          quote_id: quote.quote_id,
          client_type: 'api',
          idempotency_key: `sweep-${randomUUID()}`,
        },
        { deadline: Date.now() + 10_000, requestId: 'test' },
      );
      return { clientId, runId: run.run_id };
    }

    it('queues an undispatched run of any capability on its own queue', async () => {
      const { runId } = await paidRun(deadBus);
      expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).dispatchedAt).toBeNull();
      expect((await sweep()).queued).toContain(runId);
      expect((await h.queue('capability.pii-redact').getJob(runJobId(runId)))?.data).toEqual({
        run_id: runId,
        input: { text: TEXT, types: ['email', 'phone', 'iban', 'card'], style: 'label' },
      });
    });

    it('releases the hold of a stalled paid run in the same sweep that fails it', async () => {
      const { clientId, runId } = await paidRun();
      await h.report({ event: 'started', run_id: runId, attempt: 1, at: new Date().toISOString() });
      await h.prisma
        .$executeRaw`UPDATE orchestrator.runs SET updated_at = now() - interval '16 minutes' WHERE id = ${runId}::uuid`;
      const swept = await sweep();
      expect(swept.failed).toContainEqual({ run_id: runId, status: 'failed' });
      expect(swept.settled).toContain(runId);
      expect((await h.queue('wallet.settle').getJob(`settle-${runId}`))?.data).toEqual({
        run_id: runId,
        client_id: clientId,
        outcome: 'release',
        reason: 'run failed: internal',
      });
      // Queued once: the next sweep leaves it alone.
      expect((await sweep()).settled).not.toContain(runId);
    });

    it('releases a hold whose run was never recorded once it is older than ORPHAN_HOLD_AFTER_MS', async () => {
      // What a run transaction that rolled back after the wallet committed the hold leaves behind.
      const { clientId, quote } = await quoted();
      await h.wallet.call('holdForRun', {
        client_id: clientId,
        run_id: quote.quote_id,
        quote_id: quote.quote_id,
        slug: 'pii-redact',
        input_hash: inputHash({ text: TEXT, types: ['email', 'phone', 'iban', 'card'], style: 'label' }),
      });
      // And a hold whose run exists (queued): not an orphan, whatever its age.
      const live = await paidRun();

      expect((await sweep()).orphansReleased).not.toContain(quote.quote_id);
      const later = () => new Date(Date.now() + 11 * 60_000);
      const swept = await sweep(900_000, later);
      expect(swept.orphansReleased).toContain(quote.quote_id);
      expect(swept.orphansReleased).not.toContain(live.runId);
      expect((await h.queue('wallet.settle').getJob(`settle-${quote.quote_id}`))?.data).toEqual({
        run_id: quote.quote_id,
        client_id: clientId,
        outcome: 'release',
        reason: 'hold without a run',
      });
      await pollUntil(
        async () =>
          (await h.wallet.call('runLedger', { client_id: clientId, run_id: quote.quote_id })).settled,
      );
      expect(
        await h.wallet.call('runLedger', { client_id: live.clientId, run_id: live.runId }),
      ).toMatchObject({
        held_usd: '0.002',
        settled: false,
      });
    });
  });
});
