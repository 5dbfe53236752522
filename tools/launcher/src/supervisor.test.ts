import { type ChildSpec, type ExitStatus, type RestartPolicy, Supervisor } from './supervisor';

// The supervisor against real (trivial) node child processes: no network, no services.

const FAST_POLICY: RestartPolicy = { maxRestarts: 2, windowMs: 60_000, initialDelayMs: 20, maxDelayMs: 100 };

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
  const gaveUp: Array<{ name: string; status: ExitStatus }> = [];
  return {
    lines,
    notes,
    gaveUp,
    hooks: {
      line: (name: string, stream: 'stdout' | 'stderr', text: string) => lines.push({ name, stream, text }),
      info: (message: string) => notes.push(message),
      warn: (message: string) => notes.push(message),
      gaveUp: (name: string, status: ExitStatus) => gaveUp.push({ name, status }),
    },
  };
}

async function eventually(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
    await eventually(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 2);
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
    await eventually(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 3);
    await supervisor.stop([['z'], ['x']], 5_000);
    const order = rec.notes.filter((n) => n.endsWith('stopped (exit code 0)')).map((n) => n[0]);
    expect(order).toEqual(['z', 'x', 'y']);
  });

  it('restarts a crashed child with backoff, then gives up after the allowed restarts', async () => {
    const rec = recorder();
    const supervisor = new Supervisor(
      [script('crashy', `console.log('start'); process.exit(3);`)],
      rec.hooks,
      FAST_POLICY,
    );
    supervisor.start();
    await eventually(() => rec.gaveUp.length === 1);
    // First run + 2 restarts, then the third crash within the window gives up.
    expect(rec.lines.filter((l) => l.text === 'start')).toHaveLength(3);
    expect(rec.gaveUp[0]).toEqual({ name: 'crashy', status: { code: 3, signal: null } });
    expect(rec.notes.filter((n) => n.includes('restarting it in'))).toEqual([
      expect.stringContaining('in 20 ms'),
      expect.stringContaining('in 40 ms'),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rec.lines.filter((l) => l.text === 'start')).toHaveLength(3); // no restart after giving up
    await supervisor.stop([], 1_000);
  });

  it('heals a child killed from outside', async () => {
    const rec = recorder();
    const supervisor = new Supervisor([script('svc', LONG_RUNNING)], rec.hooks, FAST_POLICY);
    supervisor.start();
    await eventually(() => supervisor.pid('svc') !== undefined && rec.lines.length === 1);
    const first = supervisor.pid('svc');
    if (first === undefined) throw new Error('no pid');
    process.kill(first, 'SIGKILL');
    await eventually(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 2);
    expect(supervisor.pid('svc')).not.toBe(first);
    expect(rec.notes).toContainEqual(expect.stringContaining('svc exited unexpectedly (signal SIGKILL)'));
    await supervisor.stop([], 5_000);
  });

  it('SIGKILLs a child that ignores SIGTERM after the timeout', async () => {
    const rec = recorder();
    const stubborn = `process.on('SIGTERM', () => console.log('ignoring')); console.log('up'); setInterval(() => {}, 1000);`;
    const supervisor = new Supervisor([script('stubborn', stubborn)], rec.hooks, FAST_POLICY);
    supervisor.start();
    await eventually(() => rec.lines.some((l) => l.text === 'up'));
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
    await eventually(() => rec.lines.filter((l) => l.text.startsWith('up ')).length === 2);
    supervisor.killAll();
    await supervisor.exited();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([supervisor.pid('p'), supervisor.pid('q')]).toEqual([undefined, undefined]);
    expect(rec.lines.some((l) => l.text === 'bye')).toBe(false); // no SIGTERM handler ran
    expect(rec.notes.filter((n) => n.includes('restarting'))).toEqual([]);
  });
});
