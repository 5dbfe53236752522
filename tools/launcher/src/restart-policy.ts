// When the supervisor restarts a child that exited on its own, and when it calls that a crash loop.
// It never gives up on a child (issue 13: one crash-looping service must not take the platform
// down): the delay grows with each crash in a row, is capped, and starts over once the child has
// stayed up for a while (Kubernetes' CrashLoopBackOff works the same way, with longer times).

export interface RestartPolicy {
  /** ms before the first restart after a crash; doubled for each further crash in a row. */
  initialDelayMs: number;
  /** ms: the delay never grows past this. */
  maxDelayMs: number;
  /**
   * Fraction (0 to 1) of each delay taken off at random, so services that crash together (Redis
   * went away) do not all restart in the same instant.
   */
  jitter: number;
  /** ms: a child up this long is stable again: its crash streak and delay start over. */
  stableAfterMs: number;
  /** This many crashes within `loopWindowMs` is a crash loop, announced loudly once. */
  loopCrashes: number;
  /** ms */
  loopWindowMs: number;
}

/**
 * Restarts after 0.5, 1, 2, 4, 8, 16, then every 30 s (less up to 20 % jitter); 5 crashes within a
 * minute is a crash loop; a minute up ends the streak. Short enough for a developer's laptop, where
 * a service that crashed is usually fixed and saved within seconds.
 */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  jitter: 0.2,
  stableAfterMs: 60_000,
  loopCrashes: 5,
  loopWindowMs: 60_000,
};

/**
 * ms to wait before restarting after the `streak`-th crash in a row (1-based): exponential,
 * capped, minus jitter. With jitter below 0.5 each delay is longer than the one before it until
 * the cap (1.6 × d at least after d at most), so the growth survives the randomness.
 */
export function restartDelayMs(
  policy: RestartPolicy,
  streak: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.initialDelayMs * 2 ** Math.max(0, streak - 1), policy.maxDelayMs);
  return Math.round(exponential * (1 - policy.jitter * random()));
}

/** What one crash means for the child, as `CrashHistory.record` reports it. */
export interface CrashVerdict {
  /** Crashes in a row, this one included (since the child last stayed up `stableAfterMs`). */
  streak: number;
  /** Crashes within the last `loopWindowMs`, this one included. */
  inWindow: number;
  /** ms until the restart. */
  delayMs: number;
  /** Whether the child is in a crash loop (since this crash or an earlier one). */
  looping: boolean;
  /** True for the crash that made it a crash loop: the one to announce loudly. */
  enteredLoop: boolean;
}

/** The crash bookkeeping of one child. */
export class CrashHistory {
  private streakCount = 0;
  /** ms since the epoch of the crashes within the loop window. */
  private recent: number[] = [];
  private looping = false;

  constructor(
    private readonly policy: RestartPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  /** Crashes in a row so far (0 once the child has been stable). */
  get streak(): number {
    return this.streakCount;
  }

  record(nowMs: number): CrashVerdict {
    this.streakCount += 1;
    this.recent = this.recent.filter((at) => nowMs - at < this.policy.loopWindowMs);
    this.recent.push(nowMs);
    const enteredLoop = !this.looping && this.recent.length >= this.policy.loopCrashes;
    if (enteredLoop) this.looping = true;
    return {
      streak: this.streakCount,
      inWindow: this.recent.length,
      delayMs: restartDelayMs(this.policy, this.streakCount, this.random),
      looping: this.looping,
      enteredLoop,
    };
  }

  /** The child stayed up `stableAfterMs`: everything starts over. Returns the streak it ended. */
  markStable(): { crashes: number; wasLooping: boolean } {
    const ended = { crashes: this.streakCount, wasLooping: this.looping };
    this.streakCount = 0;
    this.recent = [];
    this.looping = false;
    return ended;
  }
}

/** `850 ms`, `1.5 s`, `30 s`: delays as a person reads them in a log line. */
export function formatDelay(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const seconds = ms / 1_000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
