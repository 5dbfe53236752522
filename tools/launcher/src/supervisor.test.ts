import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '@svc/testkit';
import type { CrashVerdict, RestartPolicy } from './restart-policy';
import {
  type ChildSpec,
  type ExitStatus,
  realTimers,
  type ScheduleTimer,
  Supervisor,
  type TimerPurpose,
} from './supervisor';

// The supervisor against real (trivial) child processes: no network, no services. Children that
// only crash are /bin/sh (it starts in milliseconds; node takes tens to hundreds on a loaded
// machine, and the crash loop starts a dozen of them). The supervisor's timers go through a
// TestClock: every timer is recorded, and the ones a test holds fire when the test says so, not
// after real seconds (a child "stayed up", a restart is due, SIGTERM's grace is over).

/** ms-scale delays so a dozen crashes take well under a second; nothing here is ever stable. */
const FAST_POLICY: RestartPolicy = {
  initialDelayMs: 10,
  maxDelayMs: 80,
  jitter: 0.2,
  stableAfterMs: 60_000,
  loopCrashes: 3,
  loopWindowMs: 60_000,
};

function script(name: string, source: string): ChildSpec {
  return { name, command: process.execPath, args: ['-e', source], cwd: process.cwd(), env: process.env };
}

function shell(name: string, source: string, ...args: string[]): ChildSpec {
  return {
    name,
    command: '/bin/sh',
    args: ['-c', source, name, ...args],
    cwd: process.cwd(),
    env: process.env,
  };
}

interface TestTimer {
  purpose: TimerPurpose;
  ms: number;
  state: 'pending' | 'fired' | 'cancelled';
  fire: () => void;
}

/** The supervisor's clock: real timers, except for the purposes held, which fire only on fireNext(). */
class TestClock {
  readonly timers: TestTimer[] = [];

  constructor(private readonly held: readonly TimerPurpose[] = []) {}

  readonly schedule: ScheduleTimer = (purpose, ms, fire) => {
    const timer: TestTimer = { purpose, ms, state: 'pending', fire };
    this.timers.push(timer);
    const run = () => {
      if (timer.state !== 'pending') return;
      timer.state = 'fired';
      fire();
    };
    timer.fire = run;
    const cancelReal = this.held.includes(purpose) ? () => {} : realTimers(purpose, ms, run);
    return () => {
      if (timer.state === 'pending') timer.state = 'cancelled';
      cancelReal();
    };
  };

  of(purpose: TimerPurpose, state?: TestTimer['state']): TestTimer[] {
    return this.timers.filter((t) => t.purpose === purpose && (state === undefined || t.state === state));
  }

  /** Fires the one pending timer of `purpose` now (there must be exactly one). */
  fireNext(purpose: TimerPurpose): void {
    const pending = this.of(purpose, 'pending');
    if (pending.length !== 1) throw new Error(`${pending.length} pending ${purpose} timers, expected 1`);
    pending[0]?.fire();
  }
}

/**
 * A child that lives until SIGTERM and exits 0 on it; it prints `up` only once its handler is in
 * place (printed first, a SIGTERM sent on seeing `up` could land before the handler and kill it).
 */
const LONG_RUNNING = `
  process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
  console.log('up ' + process.pid);
  setInterval(() => {}, 1000);
`;

function recorder() {
  const lines: Array<{ name: string; stream: string; text: string }> = [];
  const notes: string[] = [];
  const errors: string[] = [];
  const restarts: Array<{ name: string; status: ExitStatus; verdict: CrashVerdict }> = [];
  return {
    lines,
    notes,
    errors,
    restarts,
    hooks: {
      line: (name: string, stream: 'stdout' | 'stderr', text: string) => lines.push({ name, stream, text }),
      info: (message: string) => notes.push(message),
      warn: (message: string) => notes.push(message),
      error: (message: string) => errors.push(message),
      restartScheduled: (name: string, status: ExitStatus, verdict: CrashVerdict) =>
        restarts.push({ name, status, verdict }),
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Supervisor', () => {
  it('hands on output line by line, split by stream, and stops children with SIGTERM', async () => {
    const rec = recorder();
    const supervisor = new Supervisor(
      [
        script(
          'a',
          `process.stdout.write('one\\ntwo\\nthr'); process.stdout.write('ee\\n'); ${LONG_RUNNING}`,
        ),
        script('b', `console.error('oops'); ${LONG_RUNNING}`),
      ],
      rec.hooks,
      FAST_POLICY,
    );
    supervisor.start();
    await pollUntil(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 2);
    expect(rec.lines.filter((l) => l.name === 'a').map((l) => l.text)).toEqual(
      expect.arrayContaining(['one', 'two', 'three']),
    );
    expect(rec.lines).toContainEqual({ name: 'b', stream: 'stderr', text: 'oops' });

    const pids = [supervisor.pid('a'), supervisor.pid('b')];
    await supervisor.stop([['a'], ['b']], 5_000);
    expect(pids.filter((pid) => pid !== undefined && alive(pid))).toEqual([]);
    expect(rec.lines.filter((l) => l.text === 'bye')).toHaveLength(2);
    expect(rec.notes).toContain('a stopped (exit code 0)');
  });

  it('stops groups in the given order', async () => {
    const rec = recorder();
    const supervisor = new Supervisor(
      ['x', 'y', 'z'].map((name) => script(name, LONG_RUNNING)),
      rec.hooks,
      FAST_POLICY,
    );
    supervisor.start();
    await pollUntil(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 3);
    await supervisor.stop([['z'], ['x']], 5_000);
    const order = rec.notes.filter((n) => n.endsWith('stopped (exit code 0)')).map((n) => n[0]);
    expect(order).toEqual(['z', 'x', 'y']);
  });

  it('never gives up on a crash loop: restarts with growing, capped delays, says so loudly, and stop() cancels the pending restart', async () => {
    const rec = recorder();
    // Restarts are held: each fires as soon as the test has seen its crash, the last one is left
    // pending for stop() to cancel.
    const clock = new TestClock(['restart']);
    const supervisor = new Supervisor(
      [shell('crashy', 'echo start; exit 3'), script('steady', LONG_RUNNING)],
      rec.hooks,
      FAST_POLICY,
      clock.schedule,
    );
    supervisor.start();
    // Well past the old limit (5 restarts a minute, then everything stopped).
    const CRASHES = 12;
    for (let crash = 1; crash <= CRASHES; crash += 1) {
      await pollUntil(() => rec.restarts.length >= crash, { timeoutMs: 30_000 });
      // One crash, one restart scheduled; the next crash can only follow the restart.
      expect(rec.restarts).toHaveLength(crash);
      if (crash < CRASHES) clock.fireNext('restart');
    }
    const verdicts = rec.restarts.slice(0, CRASHES).map((r) => r.verdict);
    expect(rec.restarts.slice(0, CRASHES).every((r) => r.name === 'crashy' && r.status.code === 3)).toBe(
      true,
    );
    expect(verdicts.map((v) => v.streak)).toEqual(Array.from({ length: CRASHES }, (_, i) => i + 1));
    const delays = verdicts.map((v) => v.delayMs);
    // Each restart waits the delay its verdict gives.
    expect(clock.of('restart').map((t) => t.ms)).toEqual(delays);
    // Each delay is within its jittered band (10 · 2^(n-1), capped at 80, less at most 20 %) ...
    delays.forEach((delay, i) => {
      const exponential = Math.min(10 * 2 ** i, FAST_POLICY.maxDelayMs);
      expect(delay).toBeLessThanOrEqual(exponential);
      expect(delay).toBeGreaterThanOrEqual(Math.floor(exponential * 0.8));
    });
    // ... so the delays grow until the cap and never pass it.
    expect(delays.slice(0, 4)).toEqual([...delays.slice(0, 4)].sort((x, y) => x - y));
    expect(Math.max(...delays)).toBeLessThanOrEqual(FAST_POLICY.maxDelayMs);
    // One warning per crash with its count and delay; one loud line when it became a crash loop.
    expect(rec.notes).toContainEqual(
      expect.stringMatching(
        /^crashy exited unexpectedly \(exit code 3\): crash 1 in a row, 1 within 60 s; restarting it in \d+ ms$/,
      ),
    );
    expect(rec.notes).toContainEqual(
      expect.stringMatching(/crash 4 in a row, 4 within 60 s, crash-looping; restarting/),
    );
    expect(rec.errors).toEqual([expect.stringMatching(/^crashy is CRASH-LOOPING \(3 crashes within 60 s\)/)]);
    expect(verdicts.map((v) => v.enteredLoop)).toEqual(verdicts.map((_, i) => i === 2));
    // The other child was never touched.
    expect(supervisor.pid('steady')).toBeDefined();
    expect(rec.notes.filter((n) => n.startsWith('steady'))).toEqual([]);

    // A stop in the middle of the loop stops both and cancels the restart that was pending: it never
    // fires (the one restart held back above), so crashy never starts again.
    expect(clock.of('restart', 'pending')).toHaveLength(1);
    await supervisor.stop([['steady'], ['crashy']], 5_000);
    expect(clock.of('restart', 'pending')).toEqual([]);
    expect(clock.of('restart', 'cancelled')).toHaveLength(1);
    expect(rec.lines.filter((l) => l.text === 'start')).toHaveLength(CRASHES);
    expect(supervisor.pid('crashy')).toBeUndefined();
    expect(rec.notes).toContain('steady stopped (exit code 0)');
  });

  it('a child that stays up after crashing is announced recovered, and its next crash starts the delays over', async () => {
    const rec = recorder();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'supervisor-'));
    const counter = path.join(dir, 'starts');
    // Crashes on its first three starts (counted in a file), then runs node until stopped ($1: the
    // counter, $2: node, $3: its script; exec, so the pid the supervisor has is node's).
    const flaky = shell(
      'flaky',
      'n=$(($(cat "$1" 2>/dev/null || echo 0) + 1)); echo "$n" > "$1"; [ "$n" -le 3 ] && exit 1; exec "$2" -e "$3"',
      counter,
      process.execPath,
      LONG_RUNNING,
    );
    // The "stayed up" timers are held: one fires only when the test fires it, once the fourth start
    // is up, so no crashing start can count as stable however slow the machine, and nothing waits
    // out a real stableAfterMs.
    const clock = new TestClock(['stable']);
    const policy: RestartPolicy = { ...FAST_POLICY, stableAfterMs: 5_000 };
    const supervisor = new Supervisor([flaky], rec.hooks, policy, clock.schedule);
    try {
      supervisor.start();
      await pollUntil(() => rec.lines.some((l) => l.text.startsWith('up ')), { timeoutMs: 30_000 });
      // Each restart armed the timer (the first start did not: nothing had crashed yet); the two
      // restarts that crashed cancelled theirs on exiting; the fourth start's is pending.
      expect(clock.of('stable').map((t) => [t.ms, t.state])).toEqual([
        [5_000, 'cancelled'],
        [5_000, 'cancelled'],
        [5_000, 'pending'],
      ]);
      expect(rec.notes.some((n) => n.startsWith('flaky recovered'))).toBe(false);
      clock.fireNext('stable');
      expect(rec.notes).toContain('flaky recovered: up for 5 s after 3 crashes in a row (crash loop over)');
      expect(rec.restarts.map((r) => r.verdict.streak)).toEqual([1, 2, 3]);

      const pid = supervisor.pid('flaky');
      if (pid === undefined) throw new Error('no pid');
      process.kill(pid, 'SIGKILL');
      await pollUntil(() => rec.restarts.length === 4);
      // A fresh streak: first delay again, not the fourth, and not a crash loop any more.
      expect(rec.restarts[3]?.verdict).toMatchObject({ streak: 1, inWindow: 1, looping: false });
      expect(rec.restarts[3]?.verdict.delayMs).toBeLessThanOrEqual(FAST_POLICY.initialDelayMs);
      await pollUntil(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 2);
    } finally {
      await supervisor.stop([], 5_000);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('heals a child killed from outside', async () => {
    const rec = recorder();
    const supervisor = new Supervisor([script('svc', LONG_RUNNING)], rec.hooks, FAST_POLICY);
    supervisor.start();
    await pollUntil(() => supervisor.pid('svc') !== undefined && rec.lines.length === 1);
    const first = supervisor.pid('svc');
    if (first === undefined) throw new Error('no pid');
    process.kill(first, 'SIGKILL');
    await pollUntil(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 2);
    expect(supervisor.pid('svc')).not.toBe(first);
    expect(rec.notes).toContainEqual(
      expect.stringContaining('svc exited unexpectedly (signal SIGKILL): crash 1 in a row'),
    );
    await supervisor.stop([], 5_000);
  });

  it('SIGKILLs a child that ignores SIGTERM after the timeout', async () => {
    const rec = recorder();
    const stubborn = `process.on('SIGTERM', () => console.log('ignoring')); console.log('up'); setInterval(() => {}, 1000);`;
    // SIGTERM's grace is held: the SIGKILL comes when the test ends the grace, after seeing the
    // child outlive its SIGTERM (instead of asserting that stop() took at least the timeout).
    const clock = new TestClock(['kill']);
    const supervisor = new Supervisor([script('stubborn', stubborn)], rec.hooks, FAST_POLICY, clock.schedule);
    supervisor.start();
    await pollUntil(() => rec.lines.some((l) => l.text === 'up'));
    const pid = supervisor.pid('stubborn');
    if (pid === undefined) throw new Error('no pid');
    const stopped = supervisor.stop([], 300);
    await pollUntil(() => rec.lines.some((l) => l.text === 'ignoring'));
    expect(clock.of('kill').map((t) => [t.ms, t.state])).toEqual([[300, 'pending']]);
    expect(alive(pid)).toBe(true);
    expect(rec.notes.some((n) => n.startsWith('stubborn stopped'))).toBe(false);
    clock.fireNext('kill');
    await stopped;
    expect(alive(pid)).toBe(false);
    expect(rec.notes).toContain('stubborn did not exit within 300 ms of SIGTERM; sending SIGKILL');
    expect(rec.notes).toContainEqual(expect.stringContaining('stubborn stopped (signal SIGKILL)'));
    // A stop is final: no restart after it (every timer goes through the clock: none was set).
    expect(clock.of('restart')).toEqual([]);
    expect(supervisor.pid('stubborn')).toBeUndefined();
  });

  it('killAll() SIGKILLs every child at once and restarts none', async () => {
    const rec = recorder();
    const clock = new TestClock();
    const supervisor = new Supervisor(
      ['p', 'q'].map((name) => script(name, LONG_RUNNING)),
      rec.hooks,
      FAST_POLICY,
      clock.schedule,
    );
    supervisor.start();
    await pollUntil(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 2);
    supervisor.killAll();
    await supervisor.exited();
    // Every timer goes through the clock: no restart was even scheduled (rather than waiting a while
    // to see none happen).
    expect(clock.of('restart')).toEqual([]);
    expect([supervisor.pid('p'), supervisor.pid('q')]).toEqual([undefined, undefined]);
    expect(rec.lines.some((l) => l.text === 'bye')).toBe(false); // no SIGTERM handler ran
    expect(rec.notes.filter((n) => n.includes('restarting'))).toEqual([]);
  });
});
