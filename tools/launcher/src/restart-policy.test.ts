import { CrashHistory, DEFAULT_RESTART_POLICY, formatDelay, restartDelayMs } from './restart-policy';

// The arithmetic of restarts, with the randomness pinned at both ends of its range.

const lowest = () => 1; // the most jitter: the delay loses `jitter` of itself
const highest = () => 0; // no jitter

describe('restartDelayMs', () => {
  it('doubles from the initial delay up to the cap, less at most the jitter fraction', () => {
    const streaks = [1, 2, 3, 4, 5, 6, 7, 8, 20];
    expect(streaks.map((n) => restartDelayMs(DEFAULT_RESTART_POLICY, n, highest))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(streaks.map((n) => restartDelayMs(DEFAULT_RESTART_POLICY, n, lowest))).toEqual([
      400, 800, 1_600, 3_200, 6_400, 12_800, 24_000, 24_000, 24_000,
    ]);
  });
});

describe('CrashHistory', () => {
  it('counts a streak, calls the fifth crash within a minute a crash loop once, and starts over when stable', () => {
    const history = new CrashHistory(DEFAULT_RESTART_POLICY, highest);
    const verdicts = [0, 1_000, 2_000, 3_000, 4_000, 5_000].map((at) => history.record(at));
    expect(verdicts.map((v) => v.streak)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(verdicts.map((v) => v.enteredLoop)).toEqual([false, false, false, false, true, false]);
    expect(verdicts.map((v) => v.looping)).toEqual([false, false, false, false, true, true]);
    expect(history.markStable()).toEqual({ crashes: 6, wasLooping: true });
    expect(history.record(70_000)).toEqual({
      streak: 1,
      inWindow: 1,
      delayMs: 500,
      looping: false,
      enteredLoop: false,
    });
  });

  it('forgets crashes older than the window when counting toward a loop (the streak still grows)', () => {
    const history = new CrashHistory(DEFAULT_RESTART_POLICY, highest);
    const verdicts = [0, 30_000, 61_000, 92_000, 123_000].map((at) => history.record(at));
    expect(verdicts.map((v) => v.inWindow)).toEqual([1, 2, 2, 2, 2]);
    expect(verdicts.some((v) => v.looping)).toBe(false);
    expect(verdicts.map((v) => v.streak)).toEqual([1, 2, 3, 4, 5]);
  });
});

test('formatDelay', () => {
  expect([850, 1_000, 1_550, 30_000].map(formatDelay)).toEqual(['850 ms', '1 s', '1.6 s', '30 s']);
});
