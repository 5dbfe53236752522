import { memoryLogger } from '@svc/log';
import { pollUntil } from '../../testkit/src/poll';
import { type Bus, createBus, serveRpc, serviceClient } from '../src';
import { type TestCatalog, type TestHandlers, testCatalog } from './catalog';
import { busKeys, deletePrefix, redisUrl, sleep, uniquePrefix } from './helpers';

// Replies go to the caller's own channel and are matched to its calls by id: with two callers (two
// buses: two reply channels, as two processes have) and two responders taking from the same list,
// every call must get the answer to its own request, never another's.

const prefix = uniquePrefix('rpc-routing');
const { logger } = memoryLogger();
const buses: Bus<TestCatalog>[] = [];
const newBus = () => {
  const bus = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
  buses.push(bus);
  return bus;
};

afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  await deletePrefix(prefix);
});

/** A registry responder that echoes the query back, says who answered, and takes a little time. */
function echoRegistry(name: string, served: Map<string, number>): TestHandlers<'registry'> {
  return {
    search: async (query) => {
      served.set(name, (served.get(name) ?? 0) + 1);
      // Slow enough that one responder's 32 slots fill up and the other one takes requests too.
      await sleep(5 + Math.floor(Math.random() * 10));
      return {
        ok: true,
        capabilities: [],
        count: 0,
        query: { q: query.q ?? null, category: name, limit: query.limit },
      };
    },
    describe: async ({ slug }) => ({ slug }),
  };
}

it('routes every reply to its own caller under concurrency (two callers, two responders)', async () => {
  const served = new Map<string, number>();
  const servers = [
    serveRpc(newBus(), 'registry', echoRegistry('left', served)),
    serveRpc(newBus(), 'registry', echoRegistry('right', served)),
  ];
  await Promise.all(servers.map((server) => server.waitUntilReady()));
  const callers = [newBus(), newBus()].map((bus) => serviceClient(bus, 'registry', { timeoutMs: 20_000 }));

  const CALLS_PER_CALLER = 300;
  const results = await Promise.all(
    callers.flatMap((caller, c) =>
      Array.from({ length: CALLS_PER_CALLER }, async (_, i) => {
        const q = `caller ${c} call ${i}`;
        const answer = await caller.search({ q, limit: 1 + (i % 100) });
        return { q, limit: 1 + (i % 100), answer };
      }),
    ),
  );
  for (const { q, limit, answer } of results) {
    expect(answer.query).toMatchObject({ q, limit });
  }
  expect(results).toHaveLength(2 * CALLS_PER_CALLER);
  // Both responders took part (each request was run once: the counts add up to the calls).
  expect([...served.keys()].sort()).toEqual(['left', 'right']);
  expect([...served.values()].reduce((sum, n) => sum + n, 0)).toBe(2 * CALLS_PER_CALLER);
});

it('answers the calls still running when the responder bus itself closes', async () => {
  const serverBus = newBus();
  const release: Array<() => void> = [];
  const server = serveRpc(serverBus, 'wallet', {
    balance: async ({ client_id }) => {
      await new Promise<void>((resolve) => release.push(resolve));
      return {
        ok: true,
        client_id,
        currency: 'USD',
        balance_usd: '1',
        held_usd: '0',
        spent_usd: '0',
        spend_cap_usd: null,
        remaining_usd: '1',
        period: { start: '2026-08-01T00:00:00Z', end: '2026-09-01T00:00:00Z' },
      };
    },
  });
  await server.waitUntilReady();
  const caller = serviceClient(newBus(), 'wallet', { timeoutMs: 10_000 });
  const ids = [1, 2, 3].map((n) => `${n}${n}${n}${n}${n}${n}${n}${n}-0000-4000-8000-000000000000`);
  const calls = ids.map((client_id) => caller.balance({ client_id }));
  await pollUntil(() => release.length === 3);
  // bus.close() closes the responder first (it stops taking requests, lets its handlers finish and
  // sends their replies), then the bus's connections.
  const closed = serverBus.close();
  for (const resolve of release) resolve();
  await closed;
  expect((await Promise.all(calls)).map((answer) => answer.client_id)).toEqual(ids);
});
