import { ServiceUnavailableError } from '@svc/errors';
import { memoryLogger } from '@svc/log';
import { ANSWER_RESERVE_MS, type Bus, createBus, serveRpc, serviceClient } from '../src';
import { rpcRequestListKey } from '../src/names';
import { busKeys, deletePrefix, redisUrl, uniquePrefix } from './helpers';
import { relayCatalog } from './relay-catalog';

/**
 * Deadline propagation over Redis (decisions TR3a): a handler's call to another service is bounded
 * by its own caller's deadline, and the 503 of a bounded call names the service only when that
 * service never took the request (it is still in its list, and is withdrawn); one it took but had not
 * answered in time is the request's lack of time, worded without naming it.
 */

const prefix = uniquePrefix('deadline');
const { logger } = memoryLogger();
let bus: Bus<typeof relayCatalog>;
let release: () => void = () => {};

beforeAll(async () => {
  bus = createBus({ catalog: relayCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
  const back = serviceClient(bus, 'back', { timeoutMs: 30_000 });
  const front = serveRpc(bus, 'front', { relay: async () => back.hang({}) });
  await front.waitUntilReady();
});

afterAll(async () => {
  release();
  await bus.close();
  await deletePrefix(prefix);
});

const callFront = () =>
  serviceClient(bus, 'front', { timeoutMs: ANSWER_RESERVE_MS + 400 })
    .relay({})
    .catch((err: unknown) => err);

it("names a service that never took the call, within the caller's deadline, and withdraws the request", async () => {
  // No `back` responder: its request waits in the list until the front's deadline bounds the call.
  const error = await callFront();
  expect(error).toBeInstanceOf(ServiceUnavailableError);
  expect((error as Error).message).toMatch(/^back service did not answer within \d+ ms$/);
  expect(Number(/within (\d+) ms/.exec((error as Error).message)?.[1])).toBeLessThanOrEqual(400);
  // Withdrawn: a responder that starts later does not run it.
  expect(await bus.redis.llen(rpcRequestListKey(prefix, 'back'))).toBe(0);
});

it('does not name a service that took the call but had not answered by the deadline', async () => {
  const hanging = new Promise<void>((resolve) => {
    release = resolve;
  });
  const back = serveRpc(bus, 'back', { hang: async () => hanging.then(() => ({ ok: true })) });
  await back.waitUntilReady();
  try {
    const error = await callFront();
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as Error).message).toMatch(
      /^out of time: the request's deadline passed during a call to the back, \d+ ms after it was made$/,
    );
  } finally {
    release();
    await back.close();
  }
});
