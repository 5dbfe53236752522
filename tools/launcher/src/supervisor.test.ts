import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '@svc/testkit';
import type { CrashVerdict, RestartPolicy } from './restart-policy';
import { type ChildSpec, type ExitStatus, Supervisor } from './supervisor';

// The supervisor against real (trivial) node child processes: no network, no services.

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
    const supervisor = new Supervisor(
      [script('crashy', `console.log('start'); process.exit(3);`), script('steady', LONG_RUNNING)],
      rec.hooks,
      FAST_POLICY,
    );
    supervisor.start();
    // Well past the old limit (5 restarts a minute, then everything stopped).
    const CRASHES = 12;
    await pollUntil(() => rec.restarts.length >= CRASHES, { timeoutMs: 30_000 });
    const verdicts = rec.restarts.slice(0, CRASHES).map((r) => r.verdict);
    expect(rec.restarts.slice(0, CRASHES).every((r) => r.name === 'crashy' && r.status.code === 3)).toBe(
      true,
    );
    expect(verdicts.map((v) => v.streak)).toEqual(Array.from({ length: CRASHES }, (_, i) => i + 1));
    const delays = verdicts.map((v) => v.delayMs);
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

    // A stop in the middle of the loop stops both and cancels the restart that was pending.
    await supervisor.stop([['steady'], ['crashy']], 5_000);
    const starts = rec.lines.filter((l) => l.text === 'start').length;
    await new Promise((resolve) => setTimeout(resolve, 4 * FAST_POLICY.maxDelayMs));
    expect(rec.lines.filter((l) => l.text === 'start')).toHaveLength(starts);
    expect(supervisor.pid('crashy')).toBeUndefined();
    expect(rec.notes).toContain('steady stopped (exit code 0)');
  }, 40_000);

  it('a child that stays up after crashing is announced recovered, and its next crash starts the delays over', async () => {
    const rec = recorder();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'supervisor-'));
    const counter = path.join(dir, 'starts');
    // Crashes on its first three starts (counted in a file), then runs until stopped.
    const flaky = `
      const fs = require('node:fs');
      const starts = (fs.existsSync(${JSON.stringify(counter)}) ? Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8')) : 0) + 1;
      fs.writeFileSync(${JSON.stringify(counter)}, String(starts));
      if (starts <= 3) process.exit(1);
      ${LONG_RUNNING}`;
    // ms: longer than a crashing start can take on a loaded machine (node boots, counts, exits), so
    // only the run that stays up is stable; the test waits this long once.
    const policy: RestartPolicy = { ...FAST_POLICY, stableAfterMs: 5_000 };
    const supervisor = new Supervisor([script('flaky', flaky)], rec.hooks, policy);
    try {
      supervisor.start();
      await pollUntil(() => rec.notes.some((n) => n.startsWith('flaky recovered')), { timeoutMs: 30_000 });
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
    const supervisor = new Supervisor([script('stubborn', stubborn)], rec.hooks, FAST_POLICY);
    supervisor.start();
    await pollUntil(() => rec.lines.some((l) => l.text === 'up'));
    const started = Date.now();
    await supervisor.stop([], 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(rec.lines.some((l) => l.text === 'ignoring')).toBe(true);
    expect(rec.notes).toContainEqual(expect.stringContaining('stubborn stopped (signal SIGKILL)'));
    // A stop is final: no restart after it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(supervisor.pid('stubborn')).toBeUndefined();
  });

  it('killAll() SIGKILLs every child at once and restarts none', async () => {
    const rec = recorder();
    const supervisor = new Supervisor(
      ['p', 'q'].map((name) => script(name, LONG_RUNNING)),
      rec.hooks,
      FAST_POLICY,
    );
    supervisor.start();
    await pollUntil(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 2);
    supervisor.killAll();
    await supervisor.exited();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([supervisor.pid('p'), supervisor.pid('q')]).toEqual([undefined, undefined]);
    expect(rec.lines.some((l) => l.text === 'bye')).toBe(false); // no SIGTERM handler ran
    expect(rec.notes.filter((n) => n.includes('restarting'))).toEqual([]);
  });
});
