// Cost: ~20 s on 2 cores (35-74 s busy): 3 services once; per crash point 2 orchestrator starts, the 5 s / 2 s graces.
import { randomUUID } from 'node:crypto';
import { serviceClient } from '@svc/bus';
import { ServiceUnavailableError } from '@svc/errors';
import { pollUntil } from '@svc/testkit';
import { runJobId } from '../src/domain/dispatch';
import { type Harness, rejection, startHarness } from './harness';

// The orchestrator as deployed (src/main.ts, its own process, its own dispatcher) next to real
// registry and wallet processes; a replica armed with SVC_CRASH_AT dies (SIGKILL to itself) at a named
// step of the run path, and the ordinary process that comes back finishes what it left.

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    services: ['registry', 'wallet', 'orchestrator'],
    // ms: a short dispatcher interval so the restarted orchestrator gets to the left-over run soon.
    env: { RUN_DISPATCH_INTERVAL_MS: '200' },
  });
});

afterAll(() => h?.close());

const TEXT = 'Mail jane@example.com today.';
/** A process start, then a dispatcher pass past its grace (5 s pending, 2 s hand-over): on 2 busy cores. */
const SLOW = { timeoutMs: 45_000 };

/** A paid pii-redact start sent to an orchestrator that dies at `crashAt`; the call gets no answer. */
async function startAndCrash(crashAt: string) {
  const clientId = await h.client({ balanceUsd: '1.00' });
  const quote = await h.orchestrator.quote({
    client_id: clientId,
    slug: 'pii-redact',
    input: { text: TEXT },
    client_type: 'api',
  });
  // Only the armed replica answers rpc.orchestrator while the request is sent.
  await h.stack.stop('orchestrator');
  const armed = await h.stack.startReplica('orchestrator', { env: { SVC_CRASH_AT: crashAt } });
  const impatient = serviceClient(h.bus, 'orchestrator', { timeoutMs: 3_000 });
  const err = await rejection(
    impatient.startRun({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: quote.quote_id,
      client_type: 'api',
      idempotency_key: `crash-${randomUUID()}`,
    }),
  );
  expect(err).toBeInstanceOf(ServiceUnavailableError);
  await pollUntil(() => (armed.pid === undefined ? true : undefined));
  expect(armed.logs()).toContain(`crash point ${crashAt}`);
  return { clientId, runId: quote.quote_id };
}

const holds = (runId: string) => h.prisma.ledgerEntry.count({ where: { runId, kind: 'hold' } });

describe('crash points of the run start', () => {
  it('dies after recording the run, before the hold: the restarted dispatcher holds once and queues it', async () => {
    const { runId } = await startAndCrash('orchestrator.run-recorded');
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      holdPending: true,
      dispatches: 0,
    });
    expect(await holds(runId)).toBe(0);

    await h.stack.start('orchestrator');
    const row = await pollUntil(async () => {
      const now = await h.prisma.run.findUniqueOrThrow({ where: { id: runId } });
      return now.holdPending ? undefined : now;
    }, SLOW);
    expect(row).toMatchObject({
      status: 'queued',
      dispatches: 1,
      jobId: runJobId(runId, 1),
      priceMicros: 2_000n,
    });
    await pollUntil(
      async () => (await h.queue('capability.pii-redact').getJob(runJobId(runId, 1))) ?? undefined,
    );
    expect(await holds(runId)).toBe(1);
  });

  it('dies after the hold is confirmed, before the job is queued: the restarted dispatcher hands it over', async () => {
    const { runId } = await startAndCrash('orchestrator.hold-confirmed');
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      holdPending: false,
      dispatches: 1,
      jobId: runJobId(runId, 1),
    });
    expect(await h.queue('capability.pii-redact').getJob(runJobId(runId, 1))).toBeUndefined();

    await h.stack.start('orchestrator');
    const row = await pollUntil(async () => {
      const now = await h.prisma.run.findUniqueOrThrow({ where: { id: runId } });
      return now.dispatches === 2 ? now : undefined;
    }, SLOW);
    expect(row).toMatchObject({ status: 'queued', jobId: runJobId(runId, 2) });
    // The row is updated before the job is added: wait for the job too.
    await pollUntil(
      async () => (await h.queue('capability.pii-redact').getJob(runJobId(runId, 2))) ?? undefined,
    );
    expect(await holds(runId)).toBe(1);
  });
});
