import { RedisRestartWatch } from './redis-restart-watch';

describe('RedisRestartWatch', () => {
  it('starts in grace (Redis may have restarted while the process was down), one full pass in it and one after', () => {
    const watch = new RedisRestartWatch(15_000);
    const first = watch.begin('a', 1_000);
    expect(first).toEqual({ runId: 'a', inGrace: true, full: true });
    watch.walkedAll(first);
    expect(watch.begin('a', 15_999)).toEqual({ runId: 'a', inGrace: true, full: false });
    const after = watch.begin('a', 16_000);
    expect(after).toEqual({ runId: 'a', inGrace: false, full: true });
    watch.walkedAll(after);
    expect(watch.begin('a', 100_000)).toEqual({ runId: 'a', inGrace: false, full: false });
  });

  it('measures the grace from when a new run_id was first seen, and repeats a full pass that did not finish', () => {
    const watch = new RedisRestartWatch(15_000);
    watch.walkedAll(watch.begin('a', 0));
    watch.walkedAll(watch.begin('a', 20_000));
    // Redis restarted: the first pass with the new run_id fails half-way (no walkedAll).
    expect(watch.begin('b', 30_000)).toEqual({ runId: 'b', inGrace: true, full: true });
    const retried = watch.begin('b', 31_000);
    expect(retried).toEqual({ runId: 'b', inGrace: true, full: true });
    watch.walkedAll(retried);
    expect(watch.begin('b', 44_999)).toMatchObject({ inGrace: true, full: false });
    expect(watch.graceEndsAtMs()).toBe(45_000);
    expect(watch.begin('b', 45_000)).toEqual({ runId: 'b', inGrace: false, full: true });
  });

  it('has no grace when graceMs is 0: one full pass per run_id', () => {
    const watch = new RedisRestartWatch(0);
    const first = watch.begin('a', 5);
    expect(first).toEqual({ runId: 'a', inGrace: false, full: true });
    watch.walkedAll(first);
    expect(watch.begin('a', 5)).toMatchObject({ full: false });
    expect(watch.begin('b', 6)).toEqual({ runId: 'b', inGrace: false, full: true });
  });
});
