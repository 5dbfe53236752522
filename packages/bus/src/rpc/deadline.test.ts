import { ServiceUnavailableError } from '@svc/errors';
import { relayCatalog } from '../../test/relay-catalog';
import { serviceClient } from '../service-client';
import { ANSWER_RESERVE_MS, callTimeout, propagateDeadlines, withRequestDeadline } from './deadline';
import { createInMemoryRpc } from './in-memory-transport';

const BACK_TIMEOUT_MS = 30_000;

describe('deadline propagation', () => {
  /** front.relay calls back.hang with a 30 s timeout; the caller gives front RESERVE + 300 ms. */
  function relay(backDown: boolean) {
    const rpc = createInMemoryRpc(relayCatalog);
    let release: () => void = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const back = serviceClient(rpc, 'back', { timeoutMs: BACK_TIMEOUT_MS });
    rpc.serve('back', { hang: async () => hanging.then(() => ({ ok: true })) });
    rpc.serve('front', { relay: async () => back.hang({}) });
    if (backDown) rpc.down('back');
    const front = serviceClient(rpc, 'front', { timeoutMs: ANSWER_RESERVE_MS + 300 });
    return { call: () => front.relay({}).catch((err: unknown) => err), release };
  }

  it("names a nested service that never took the call, within the caller's deadline (not its own 30 s)", async () => {
    const { call, release } = relay(true);
    try {
      const error = await call();
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      // Before deadlines propagated the same words, but after 30 s: the caller had named the front.
      expect((error as Error).message).toMatch(/^back service did not answer within (\d+) ms$/);
      expect(Number(/within (\d+) ms/.exec((error as Error).message)?.[1])).toBeLessThanOrEqual(300);
    } finally {
      release();
    }
  });

  it('does not blame a nested service that took the call but had not answered by the deadline', async () => {
    const { call, release } = relay(false);
    try {
      const error = await call();
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      // Before: "front service did not answer within 800 ms" (back kept its 30 s, front's caller gave up).
      expect((error as Error).message).toMatch(
        /^out of time: the request's deadline passed during a call to the back, \d+ ms after it was made$/,
      );
      expect((error as Error).message).not.toMatch(/\b[a-z]+ service\b/);
    } finally {
      release();
    }
  });

  it('leaves a call outside any handler, or past its deadline, with its own timeout', async () => {
    propagateDeadlines();
    const now = 1_000_000;
    const own = (timeoutMs: number) => ({ timeoutMs, bounded: false });
    expect(callTimeout(3_000, now)).toEqual(own(3_000));
    await withRequestDeadline(now + 10_000, async () => {
      expect(callTimeout(3_000, now)).toEqual(own(3_000));
      expect(callTimeout(30_000, now)).toEqual({ timeoutMs: 10_000 - ANSWER_RESERVE_MS, bounded: true });
      expect(callTimeout(3_000, now + 10_000 - ANSWER_RESERVE_MS)).toEqual({ timeoutMs: 1, bounded: true });
      // Past the deadline: work its caller no longer waits for keeps its own timeout.
      expect(callTimeout(3_000, now + 10_001)).toEqual(own(3_000));
      // The deadline follows the handler across awaits.
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(callTimeout(30_000, now)).toEqual({ timeoutMs: 10_000 - ANSWER_RESERVE_MS, bounded: true });
    });
    expect(callTimeout(30_000, now)).toEqual(own(30_000));
  });
});
