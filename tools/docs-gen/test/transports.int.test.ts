import {
  enqueueJob,
  publishEvent,
  removeWaitingJob,
  serviceClient,
  servicePresence,
  subscribeEvents,
} from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { createTestBus, pollUntil, type TestBus } from '@svc/testkit';
import { type RedisCarrier, TRANSPORTS, type Transport } from '../src/transports';

/**
 * docs/architecture.md "Transports" is generated from TRANSPORTS; this holds each row to a real bus:
 * the message is sent, and Redis is asked what carries it under the row's name (a list, a pub/sub
 * channel, BullMQ's keys, a sorted set). A doc that says RPC runs over BullMQ fails here.
 */

let test: TestBus<typeof platformCatalog>;
beforeAll(async () => {
  test = createTestBus('transports', platformCatalog);
  // The producer connection fails fast while it connects (no offline queue): wait for it.
  await pollUntil(() => test.bus.redis.status === 'ready', { what: 'the test bus connected' });
});
afterAll(async () => {
  await test.close();
});

function row(message: string): Transport {
  const found = TRANSPORTS.find((transport) => transport.message === message);
  if (found === undefined) throw new Error(`no transport row "${message}"`);
  return found;
}

/** Whether Redis holds what `row` says carries the message of `subject` (a `*` subject: any). */
async function carried(row: Transport, subject: string): Promise<boolean> {
  const redis = test.bus.redis;
  const name = row.name(test.prefix, subject);
  const carriers: Record<RedisCarrier, () => Promise<boolean>> = {
    list: async () => (await redis.type(name)) === 'list',
    zset: async () => (await redis.type(name)) === 'zset',
    pubsub: async () => ((await redis.pubsub('CHANNELS', name)) as string[]).length > 0,
    // BullMQ keeps a queue's settings in `<prefix>:<queue>:meta`, its jobs in more keys beside it.
    bullmq: async () => (await redis.keys(name)).some((key) => key.endsWith(':meta')),
  };
  return carriers[row.carrier]();
}

it('covers every transport it documents', () => {
  expect(TRANSPORTS.map((transport) => transport.message)).toEqual([
    'RPC request',
    'RPC reply',
    'event',
    'job',
    'service readiness',
  ]);
});

it('an RPC request waits where the table says, and its reply comes where it says', async () => {
  // Nobody serves the registry on this prefix: the request stays queued until the call gives up.
  const call = serviceClient(test.bus, 'registry', { timeoutMs: 1_000 })
    .ping({})
    .catch(() => undefined);
  await pollUntil(() => carried(row('RPC request'), 'registry'), {
    what: 'the request where the table says',
  });
  expect(await carried(row('RPC reply'), '*')).toBe(true);
  await call;
});

it('an event is published where the table says', async () => {
  const subscription = subscribeEvents(test.bus, { 'catalog.changed': () => undefined });
  await subscription.waitUntilReady();
  expect(await carried(row('event'), 'catalog.changed')).toBe(true);
  // One receiver: this bus's own subscription, on that channel.
  expect(await publishEvent(test.bus, 'catalog.changed', { version: 'v1', changed_slugs: [] })).toBe(1);
  await subscription.close();
});

it('a job is queued where the table says', async () => {
  const { jobId } = await enqueueJob(test.bus, 'system.echo', { message: 'hi' }, { jobId: 'transports-1' });
  expect(await carried(row('job'), 'system.echo')).toBe(true);
  await removeWaitingJob(test.bus, 'system.echo', jobId);
});

it("a service's readiness is kept where the table says", async () => {
  await servicePresence(test.bus, 'registry').report(true);
  expect(await carried(row('service readiness'), 'registry')).toBe(true);
});
