import { InternalError, NotFoundError, ServiceUnavailableError } from '@svc/errors';
import { memoryLogger } from '@svc/log';
import type { z } from 'zod';
import { pollUntil } from '../../testkit/src/poll';
import { type Bus, createBus, createRedis, rpcQueueName, serveRpc, serviceClient } from '../src';
import { sealingContext } from '../src/sealing';
import { type TestCatalog, type TestHandlers, testCatalog } from './catalog';
import { busKeys, deletePrefix, redisUrl, sleep, uniquePrefix } from './helpers';
import { rawRpcRequests } from './rpc-raw';

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

/** Writes requests straight to a service's list, and reads the replies on a channel of its own. */
const rawRequests = (service: 'registry' | 'wallet') =>
  rawRpcRequests({ redisUrl, prefix, service, keys: busKeys });

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

describe('RPC over a Redis request list', () => {
  const seen: Array<z.output<TestCatalog['rpc']['registry']['search']['request']>> = [];

  beforeAll(async () => {
    const server = serveRpc(bus, 'registry', registryHandlers(seen));
    await server.waitUntilReady();
  });

  it('round-trips a typed request and response (defaults applied)', async () => {
    const registry = serviceClient(bus, 'registry', { timeoutMs: 5_000 });
    const answer = await registry.search({ q: 'dns' });
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
    const registry = serviceClient(bus, 'registry', { timeoutMs: 5_000 });
    const pong = await registry.ping({});
    expect(pong.service).toBe('registry');
    expect(pong.pid).toBe(process.pid);
    expect(pong.uptime_s).toBeGreaterThanOrEqual(0);
  });

  it('brings a domain error back as the same AppError class and status', async () => {
    const registry = serviceClient(bus, 'registry', { timeoutMs: 5_000 });
    const error = await registry.describe({ slug: 'no-such-thing' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, message: 'capability no-such-thing not found' });
  });

  it('hides an unexpected handler exception behind a 500 "internal error" and logs it', async () => {
    const registry = serviceClient(bus, 'registry', { timeoutMs: 5_000 });
    const error = await registry.search({ q: 'explode' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ status: 500, message: 'internal error' });
    expect(lines().some((line) => line.msg === 'rpc: handler failed')).toBe(true);
  });

  it('rejects an invalid request before sending it', async () => {
    const registry = serviceClient(bus, 'registry', { timeoutMs: 5_000 });
    const before = seen.length;
    await expect(registry.search({ limit: 1_000 })).rejects.toThrow(TypeError);
    await expect(registry.describe({ slug: 'Not A Slug' })).rejects.toThrow(
      /invalid registry.describe request/,
    );
    expect(seen.length).toBe(before);
  });

  it('answers a malformed request with a 400 on its reply channel instead of crashing', async () => {
    const raw = rawRequests('registry');
    try {
      await raw.ready();
      const inTime = () => Date.now() + 5_000;
      const bad = await raw.push('search', { request: { limit: 'lots' }, deadline: inTime() });
      const noDeadline = await raw.push('search', { request: {} });
      const unknown = await raw.push('launch', { request: {}, deadline: inTime() });
      const unsealed = await raw.push('search', { request: {}, deadline: inTime() }, { seal: false });
      const redirected = await raw.push(
        'search',
        { request: {}, deadline: inTime() },
        { sealedReplyTo: 'x' },
      );
      // Not a request at all: nothing to answer to, dropped (and logged).
      await raw.pushText('{"not":"a request"');
      for (const id of [bad, noDeadline, unknown, unsealed, redirected]) {
        const reply = await pollUntil(() => raw.replies.get(id), { what: `the reply to ${id}` });
        // The reply is sealed, bound to its request id.
        expect(JSON.stringify(reply)).not.toContain('status');
        const method = id === unknown ? 'launch' : 'search';
        const opened = raw.sealer.open(
          reply,
          sealingContext.rpcReply(prefix, rpcQueueName('registry'), method, id),
        );
        expect(opened).toMatchObject({ ok: false, error: { status: 400 } });
      }
      await pollUntil(() =>
        lines().some((line) => line.msg === 'rpc: dropped an entry that is not a request'),
      );
      // The responder is still serving.
      const registry = serviceClient(bus, 'registry', { timeoutMs: 5_000 });
      await expect(registry.ping({})).resolves.toMatchObject({ service: 'registry' });
    } finally {
      await raw.close();
    }
  });

  it('never runs a request that reaches it past its deadline, and sends it no reply', async () => {
    const raw = rawRequests('registry');
    try {
      await raw.ready();
      const before = seen.length;
      const late = await raw.push('search', { request: { q: 'too late' }, deadline: Date.now() - 1 });
      // A request behind it is answered: the late one was popped and dropped before it.
      const fresh = await raw.push('search', { request: { q: 'in time' }, deadline: Date.now() + 5_000 });
      await pollUntil(() => raw.replies.get(fresh), { what: 'the reply to the request in time' });
      expect(raw.replies.has(late)).toBe(false);
      expect(seen.slice(before).map((query) => query.q)).toEqual(['in time']);
    } finally {
      await raw.close();
    }
  });

  it('serves many concurrent calls of one client, each with its own answer', async () => {
    const registry = serviceClient(bus, 'registry', { timeoutMs: 10_000 });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => registry.search({ q: `query ${i}`, limit: 5 })),
    );
    expect(answers.map((answer) => answer.query.q)).toEqual(
      Array.from({ length: 200 }, (_, i) => `query ${i}`),
    );
  });
});

describe('RPC timeouts', () => {
  it('fails with ServiceUnavailableError when nobody answers, within the timeout plus a margin', async () => {
    const vault = serviceClient(bus, 'vault', { timeoutMs: 300 });
    const started = Date.now();
    const error = await vault.ping({}).catch((err: unknown) => err);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, message: 'vault service did not answer within 300 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(900);
  });

  it('fails a call at its deadline when the handler is slow, and drops the late reply', async () => {
    const slowId = '22222222-2222-4222-8222-222222222222';
    const release: Array<() => void> = [];
    const handlers = fakeWallet(async ({ client_id }) => {
      if (client_id === slowId) await new Promise<void>((resolve) => release.push(resolve));
      return balanceOf(client_id);
    });
    const spy = createRedis(redisUrl, { role: 'subscriber', name: `${prefix}:spy`, logger });
    const published: string[] = [];
    spy.on('pmessage', (_pattern: string, _channel: string, message: string) => published.push(message));
    await spy.psubscribe(`${prefix}:rpc-replies:*`);
    const server = serveRpc(bus, 'wallet', handlers);
    try {
      await server.waitUntilReady();
      const wallet = serviceClient(bus, 'wallet', { timeoutMs: 500 });
      const error = await wallet.balance({ client_id: slowId }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error).toMatchObject({ status: 503, message: 'wallet service did not answer within 500 ms' });
      // The handler finishes after the deadline and its reply is published: nobody takes it.
      const before = published.length;
      for (const resolve of release) resolve();
      await pollUntil(() => published.length > before, { what: 'the late reply to be published' });
      // The same client goes on with its own answers.
      await expect(wallet.balance({ client_id: CLIENT_ID })).resolves.toEqual(balanceOf(CLIENT_ID));
    } finally {
      await server.close();
      await spy.quit();
    }
  });

  it('does not run a timed-out request later, when a responder starts', async () => {
    const served: string[] = [];
    const handlers = fakeWallet(async ({ client_id }) => {
      served.push(client_id);
      return balanceOf(client_id);
    });
    const wallet = serviceClient(bus, 'wallet', { timeoutMs: 300 });
    const abandonedId = '11111111-1111-4111-8111-111111111111';
    await expect(wallet.balance({ client_id: abandonedId })).rejects.toBeInstanceOf(ServiceUnavailableError);

    const server = serveRpc(bus, 'wallet', handlers);
    try {
      await server.waitUntilReady();
      const patient = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
      await expect(patient.balance({ client_id: CLIENT_ID })).resolves.toEqual(balanceOf(CLIENT_ID));
      await sleep(300);
      expect(served).toEqual([CLIENT_ID]);
    } finally {
      await server.close();
    }
  });

  it('closes in order: a running handler finishes and is answered, a stuck one is cut at closeTimeoutMs', async () => {
    const release: Array<() => void> = [];
    const stuckId = '33333333-3333-4333-8333-333333333333';
    const started: string[] = [];
    const handlers = fakeWallet(async ({ client_id }) => {
      started.push(client_id);
      await new Promise<void>((resolve) => release.push(resolve));
      if (client_id === stuckId) await new Promise<void>(() => {});
      return balanceOf(client_id);
    });
    const server = serveRpc(bus, 'wallet', handlers, { closeTimeoutMs: 500 });
    await server.waitUntilReady();
    const wallet = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    const finishing = wallet.balance({ client_id: CLIENT_ID });
    const impatient = serviceClient(bus, 'wallet', { timeoutMs: 1_500 });
    const stuck = impatient.balance({ client_id: stuckId }).catch((err: unknown) => err);
    await pollUntil(() => started.length === 2);
    const closed = server.close();
    for (const resolve of release) resolve();
    await closed;
    await expect(finishing).resolves.toEqual(balanceOf(CLIENT_ID));
    expect(lines().some((line) => String(line.msg).includes('handlers still running at close'))).toBe(true);
    // The stuck call is never answered: 503 at its deadline.
    expect(await stuck).toBeInstanceOf(ServiceUnavailableError);
  });

  it('heals when the responder is closed and started again', async () => {
    const handlers = fakeWallet(async ({ client_id }) => balanceOf(client_id));
    const wallet = serviceClient(bus, 'wallet', { timeoutMs: 400 });

    const first = serveRpc(bus, 'wallet', handlers);
    await first.waitUntilReady();
    await expect(wallet.balance({ client_id: CLIENT_ID })).resolves.toMatchObject({
      client_id: CLIENT_ID,
    });
    await first.close();

    await expect(wallet.balance({ client_id: CLIENT_ID })).rejects.toBeInstanceOf(ServiceUnavailableError);

    const second = serveRpc(bus, 'wallet', handlers);
    try {
      await second.waitUntilReady();
      await pollUntil(async () => {
        const answer = await wallet.balance({ client_id: CLIENT_ID }).catch(() => undefined);
        return answer?.client_id === CLIENT_ID;
      });
    } finally {
      await second.close();
    }
  });
});
