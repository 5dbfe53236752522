import { ServiceUnavailableError } from '@svc/errors';
import { z } from 'zod';
import type { BusCatalog } from '../catalog';
import { serviceClient } from '../service-client';
import { ANSWER_RESERVE_MS, boundedTimeoutMs, withRequestDeadline } from './deadline';
import { createInMemoryRpc } from './in-memory-transport';

const ping = {
  request: z.object({}),
  response: z.object({ service: z.string(), pid: z.number().int(), uptime_s: z.number() }),
};

/** A front service whose `relay` calls `back.hang`, as the orchestrator calls the wallet. */
const catalog = {
  rpc: {
    front: { ping, relay: { request: z.object({}), response: z.object({ ok: z.boolean() }) } },
    back: { ping, hang: { request: z.object({}), response: z.object({ ok: z.boolean() }) } },
  },
  jobs: {},
  events: {},
} as const satisfies BusCatalog;

const BACK_TIMEOUT_MS = 30_000;

describe('deadline propagation', () => {
  it("bounds a handler's nested call by its caller's deadline, so the 503 names the service that hung", async () => {
    const rpc = createInMemoryRpc(catalog);
    let release: () => void = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const back = serviceClient(rpc, 'back', { timeoutMs: BACK_TIMEOUT_MS });
    rpc.serve('back', { hang: async () => hanging.then(() => ({ ok: true })) });
    rpc.serve('front', { relay: async () => back.hang({}) });
    const callerTimeoutMs = ANSWER_RESERVE_MS + 300;
    const front = serviceClient(rpc, 'front', { timeoutMs: callerTimeoutMs });
    try {
      const error = await front.relay({}).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      // Before: "front service did not answer within 800 ms" (back kept its 30 s).
      expect((error as Error).message).toMatch(/^back service did not answer within (\d+) ms$/);
      const bound = Number(/within (\d+) ms/.exec((error as Error).message)?.[1]);
      expect(bound).toBeGreaterThan(0);
      expect(bound).toBeLessThanOrEqual(callerTimeoutMs - ANSWER_RESERVE_MS);
    } finally {
      release();
    }
  });

  it('leaves a call outside any handler, or past its deadline, with its own timeout', async () => {
    const now = 1_000_000;
    expect(boundedTimeoutMs(3_000, now)).toBe(3_000);
    await withRequestDeadline(now + 10_000, async () => {
      expect(boundedTimeoutMs(3_000, now)).toBe(3_000);
      expect(boundedTimeoutMs(30_000, now)).toBe(10_000 - ANSWER_RESERVE_MS);
      expect(boundedTimeoutMs(3_000, now + 10_000 - ANSWER_RESERVE_MS)).toBe(1);
      // Past the deadline: work its caller no longer waits for keeps its own timeout.
      expect(boundedTimeoutMs(3_000, now + 10_001)).toBe(3_000);
      // The deadline follows the handler across awaits.
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(boundedTimeoutMs(30_000, now)).toBe(10_000 - ANSWER_RESERVE_MS);
    });
    expect(boundedTimeoutMs(30_000, now)).toBe(30_000);
  });
});
