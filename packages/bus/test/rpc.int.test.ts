import { InternalError, NotFoundError, ServiceUnavailableError } from '@svc/errors';
import { memoryLogger } from '@svc/log';
import { Queue } from 'bullmq';
import type { z } from 'zod';
import { pollUntil } from '../../testkit/src/poll';
import { type Bus, BusSealer, createBus, createRpcClient, rpcQueueName, serveRpc } from '../src';
import { sealingContext } from '../src/sealing';
import { type TestCatalog, type TestHandlers, testCatalog } from './catalog';
import { busKeys, deletePrefix, redisUrl, sleep, uniquePrefix } from './helpers';

const prefix = uniquePrefix('rpc');
const { logger, lines } = memoryLogger();
let bus: Bus<TestCatalog>;

beforeAll(() => {
  bus = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
});

afterAll(async () => {
  await bus.close();
  await deletePrefix(prefix);
});

const CLIENT_ID = '0b9d7c1e-8a53-4c4e-9d0a-2f6f1f4f6a11';

function balanceOf(clientId: string) {
  return {
    ok: true as const,
    client_id: clientId,
    currency: 'USD' as const,
    balance_usd: '12.5',
    held_usd: '0',
    spent_usd: '1',
    spend_cap_usd: null,
    remaining_usd: '12.5',
    period: { start: '2026-08-01T00:00:00Z', end: '2026-09-01T00:00:00Z' },
  };
}

/** A wallet answering `balance` only (every other method throws). */
function fakeWallet(balance: TestHandlers<'wallet'>['balance']): TestHandlers<'wallet'> {
  return { balance };
}

/** Registry handlers that record what reached them. */
function registryHandlers(
  seen: Array<z.output<TestCatalog['rpc']['registry']['search']['request']>>,
): TestHandlers<'registry'> {
  return {
    search: async (query) => {
      seen.push(query);
      if (query.q === 'explode') throw new Error('database exploded: password=hunter2');
      return {
        ok: true,
        capabilities: [],
        count: 0,
        query: { q: query.q ?? null, category: query.category ?? null, limit: query.limit },
      };
    },
    describe: async ({ slug }) => {
      throw new NotFoundError(`capability ${slug} not found`);
    },
  };
}

describe('RPC over BullMQ', () => {
  const seen: Array<z.output<TestCatalog['rpc']['registry']['search']['request']>> = [];

  beforeAll(async () => {
    const server = serveRpc(bus, 'registry', registryHandlers(seen));
    await server.waitUntilReady();
  });

  it('round-trips a typed request and response (defaults applied)', async () => {
    const registry = createRpcClient(bus, 'registry', { timeoutMs: 5_000 });
    const answer = await registry.call('search', { q: 'dns' });
    const limit: number = answer.query.limit;
    expect(answer).toEqual({
      ok: true,
      capabilities: [],
      count: 0,
      query: { q: 'dns', category: null, limit: 20 },
    });
    expect(limit).toBe(20);
    expect(seen.at(-1)).toEqual({ q: 'dns', limit: 20 });
  });

  it('answers ping itself', async () => {
    const registry = createRpcClient(bus, 'registry', { timeoutMs: 5_000 });
    const pong = await registry.call('ping', {});
    expect(pong.service).toBe('registry');
    expect(pong.pid).toBe(process.pid);
    expect(pong.uptime_s).toBeGreaterThanOrEqual(0);
  });

  it('brings a domain error back as the same AppError class and status', async () => {
    const registry = createRpcClient(bus, 'registry', { timeoutMs: 5_000 });
    const error = await registry.call('describe', { slug: 'no-such-thing' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, message: 'capability no-such-thing not found' });
  });

  it('hides an unexpected handler exception behind a 500 "internal error" and logs it', async () => {
    const registry = createRpcClient(bus, 'registry', { timeoutMs: 5_000 });
    const error = await registry.call('search', { q: 'explode' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ status: 500, message: 'internal error' });
    expect(lines().some((line) => line.msg === 'rpc: handler failed')).toBe(true);
  });

  it('rejects an invalid request before sending it', async () => {
    const registry = createRpcClient(bus, 'registry', { timeoutMs: 5_000 });
    const before = seen.length;
    await expect(registry.call('search', { limit: 1_000 })).rejects.toThrow(TypeError);
    await expect(registry.call('describe', { slug: 'Not A Slug' })).rejects.toThrow(
      /invalid registry.describe request/,
    );
    expect(seen.length).toBe(before);
  });

  it('answers a malformed job payload with a 400 envelope instead of crashing', async () => {
    const raw = new Queue(rpcQueueName('registry'), { connection: { url: redisUrl }, prefix });
    const { QueueEvents } = await import('bullmq');
    const events = new QueueEvents(rpcQueueName('registry'), { connection: { url: redisUrl }, prefix });
    try {
      await events.waitUntilReady();
      const sealer = new BusSealer(busKeys);
      const queueName = rpcQueueName('registry');
      const add = (method: string, data: unknown) =>
        raw.add(method, sealer.seal(data, sealingContext.rpcRequest(prefix, queueName, method)));
      const bad = await add('search', { request: { limit: 'lots' }, deadline: Date.now() + 5_000 });
      const noDeadline = await add('search', { request: {} });
      const unknown = await add('launch', { request: {}, deadline: Date.now() + 5_000 });
      const unsealed = await raw.add('search', { request: {}, deadline: Date.now() + 5_000 });
      for (const job of [bad, noDeadline, unknown, unsealed]) {
        const reply = await job.waitUntilFinished(events, 5_000);
        // The reply is sealed too, bound to its request job.
        expect(JSON.stringify(reply)).not.toContain('status');
        const opened = sealer.open(reply, sealingContext.rpcReply(prefix, queueName, job.name, job.id ?? ''));
        expect(opened).toMatchObject({ ok: false, error: { status: 400 } });
      }
      // The responder is still serving.
      const registry = createRpcClient(bus, 'registry', { timeoutMs: 5_000 });
      await expect(registry.call('ping', {})).resolves.toMatchObject({ service: 'registry' });
    } finally {
      await events.close();
      await raw.close();
    }
  });

  it('serves many concurrent calls through one shared QueueEvents', async () => {
    const registry = createRpcClient(bus, 'registry', { timeoutMs: 10_000 });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => registry.call('search', { q: `query ${i}`, limit: 5 })),
    );
    expect(answers.map((answer) => answer.query.q)).toEqual(
      Array.from({ length: 200 }, (_, i) => `query ${i}`),
    );
  });
});

describe('RPC timeouts', () => {
  it('fails with ServiceUnavailableError when nobody answers, within the timeout plus a margin', async () => {
    const vault = createRpcClient(bus, 'vault', { timeoutMs: 300 });
    const started = Date.now();
    const error = await vault.call('ping', {}).catch((err: unknown) => err);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, message: 'vault service did not answer within 300 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(900);
  });

  it('does not run a timed-out request later, when a responder starts', async () => {
    const served: string[] = [];
    const handlers = fakeWallet(async ({ client_id }) => {
      served.push(client_id);
      return balanceOf(client_id);
    });
    const wallet = createRpcClient(bus, 'wallet', { timeoutMs: 300 });
    const abandonedId = '11111111-1111-4111-8111-111111111111';
    await expect(wallet.call('balance', { client_id: abandonedId })).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );

    const server = serveRpc(bus, 'wallet', handlers);
    try {
      await server.waitUntilReady();
      const patient = createRpcClient(bus, 'wallet', { timeoutMs: 5_000 });
      await expect(patient.call('balance', { client_id: CLIENT_ID })).resolves.toEqual(balanceOf(CLIENT_ID));
      await sleep(300);
      expect(served).toEqual([CLIENT_ID]);
    } finally {
      await server.close();
    }
  });

  it('heals when the responder is closed and started again', async () => {
    const handlers = fakeWallet(async ({ client_id }) => balanceOf(client_id));
    const wallet = createRpcClient(bus, 'wallet', { timeoutMs: 400 });

    const first = serveRpc(bus, 'wallet', handlers);
    await first.waitUntilReady();
    await expect(wallet.call('balance', { client_id: CLIENT_ID })).resolves.toMatchObject({
      client_id: CLIENT_ID,
    });
    await first.close();

    await expect(wallet.call('balance', { client_id: CLIENT_ID })).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );

    const second = serveRpc(bus, 'wallet', handlers);
    try {
      await second.waitUntilReady();
      await pollUntil(async () => {
        const answer = await wallet.call('balance', { client_id: CLIENT_ID }).catch(() => undefined);
        return answer?.client_id === CLIENT_ID;
      });
    } finally {
      await second.close();
    }
  });
});
