import { randomUUID } from 'node:crypto';
import { memoryLogger } from '@svc/log';
import type { z } from 'zod';
import { pollUntil } from '../../testkit/src/poll';
import {
  type Bus,
  createBus,
  createRedis,
  enqueueJob,
  jobQueueName,
  openJobData,
  processJobs,
  publishEvent,
  serveRpc,
  serviceClient,
  subscribeEvents,
} from '../src';
import { rpcRequestListKey } from '../src/names';
import { type TestCatalog, testCatalog } from './catalog';
import { busKeys, deletePrefix, redisUrl, uniquePrefix } from './helpers';

// What the bus itself leaves in Redis (issue 13, finding 9): job payloads, RPC requests (on their
// list) and replies (over pub/sub) and events are sealed, and a capability job that has
// finished keeps no payload at all. The platform-wide scan is services/gateway/test/redis-at-rest.

const prefix = uniquePrefix('sealed');
const { logger } = memoryLogger();
const SECRET = 'Call Ada at +44 20 7946 0958 or ada@sealed-test.example';
let bus: Bus<TestCatalog>;
let redis: ReturnType<typeof createRedis>;

beforeAll(() => {
  bus = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
  redis = createRedis(redisUrl, { role: 'worker', name: `${prefix}:inspect`, logger });
});

afterAll(async () => {
  await bus.close();
  await redis.quit();
  await deletePrefix(prefix);
});

/** Every field and entry of a job hash and of its queue's events stream, as one text. */
async function storedText(queue: string, jobId: string): Promise<string> {
  const hash = await redis.hgetall(`${prefix}:${queue}:${jobId}`);
  const events = await redis.xrange(`${prefix}:${queue}:events`, '-', '+');
  return JSON.stringify({ hash, events });
}

it('seals a capability job payload, and drops it once the job has finished', async () => {
  const runId = randomUUID();
  const jobId = `run-${runId}`;
  const queue = jobQueueName('capability.pii-redact');
  await enqueueJob(bus, 'capability.pii-redact', { run_id: runId, input: { text: SECRET } }, { jobId });
  const waiting = await redis.hget(`${prefix}:${queue}:${jobId}`, 'data');
  expect(waiting).toMatch(/^\{"sealed":"v1\./);
  expect(waiting).not.toContain('Ada');
  expect(waiting).not.toContain(runId);
  expect(openJobData(bus, 'capability.pii-redact', JSON.parse(waiting ?? 'null'))).toMatchObject({
    run_id: runId,
    input: { text: SECRET },
  });

  const seen: string[] = [];
  const processor = processJobs(bus, 'capability.pii-redact', async ({ input }) => {
    seen.push(input.text);
    return { outcome: 'completed' };
  });
  try {
    await pollUntil(async () =>
      ((await redis.hget(`${prefix}:${queue}:${jobId}`, 'data')) ?? '').includes('dropped'),
    );
  } finally {
    await processor.close();
  }
  expect(seen).toEqual([SECRET]);
  expect(await redis.hget(`${prefix}:${queue}:${jobId}`, 'finishedOn')).not.toBeNull();
  expect(await storedText(queue, jobId)).not.toContain('Ada');
});

it('seals RPC requests on the request list and replies on the reply channel', async () => {
  const registry = serviceClient(bus, 'registry', { timeoutMs: 5_000 });
  const q = SECRET.slice(0, 100);
  // No responder yet: the request waits on the list, as it is stored in Redis.
  const answer = registry.search({ q });
  const listKey = rpcRequestListKey(prefix, 'registry');
  const waiting = await pollUntil(async () => {
    const entries = await redis.lrange(listKey, 0, -1);
    return entries.length > 0 ? entries : undefined;
  });
  for (const entry of waiting) {
    expect(entry).toContain('"sealed":"v1.');
    expect(entry).not.toContain('Ada');
  }

  const spy = createRedis(redisUrl, { role: 'subscriber', name: `${prefix}:spy`, logger });
  const replies: string[] = [];
  spy.on('pmessage', (_pattern: string, _channel: string, message: string) => replies.push(message));
  await spy.psubscribe(`${prefix}:rpc-replies:*`);
  const server = serveRpc(bus, 'registry', {
    search: async (query) => ({
      ok: true as const,
      capabilities: [],
      count: 0,
      query: { q: query.q ?? null, category: query.category ?? null, limit: query.limit },
    }),
    describe: async () => {
      throw new Error('not used');
    },
  });
  try {
    expect((await answer).query.q).toBe(q);
    // The reply went over pub/sub sealed (the caller above opened it).
    await pollUntil(() => replies.length > 0);
    for (const reply of replies) {
      expect(reply).toContain('"sealed":"v1.');
      expect(reply).not.toContain('Ada');
    }
    // And nothing of the call stays in Redis.
    expect(await redis.exists(listKey)).toBe(0);
  } finally {
    await server.close();
    await spy.quit();
  }
});

it('seals events on the wire, and subscribers still receive them', async () => {
  const received: Array<z.output<TestCatalog['events']['catalog.changed']>> = [];
  const subscription = subscribeEvents(bus, { 'catalog.changed': (event) => void received.push(event) });
  const spy = createRedis(redisUrl, { role: 'subscriber', name: `${prefix}:spy`, logger });
  const raw: string[] = [];
  try {
    await subscription.waitUntilReady();
    spy.on('message', (_channel: string, message: string) => raw.push(message));
    await spy.subscribe(`${prefix}:events:catalog.changed`);
    await publishEvent(bus, 'catalog.changed', { version: 'v-ada', changed_slugs: ['pii-redact'] });
    await pollUntil(() => received.length === 1 && raw.length === 1);
    expect(received).toEqual([{ version: 'v-ada', changed_slugs: ['pii-redact'] }]);
    expect(raw[0]).toMatch(/^\{"sealed":"v1\./);
    expect(raw[0]).not.toContain('v-ada');
  } finally {
    await subscription.close();
    await spy.quit();
  }
});
