import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { pollUntil } from '../../testkit/src/poll';

const FIXTURE = path.join(__dirname, 'fixtures', 'demo-service.ts');

interface Run {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  exited: Promise<number | null>;
}

function start(mode: string): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], {
    cwd: path.join(__dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

/** Waits (up to 15 s: the child is a real node process) for its JSON log line with this `msg`. */
const waitForLine = (run: Run, msg: string) =>
  pollUntil(() => run.lines.some((line) => line.msg === msg), { what: `a "${msg}" line`, timeoutMs: 15_000 });

const closedOrder = (run: Run) => run.lines.filter((line) => 'closed' in line).map((line) => line.closed);

describe('runService (a real process)', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('on %s closes in reverse order and exits 0', async (signal) => {
    const run = start('ok');
    await waitForLine(run, 'started');
    run.child.kill(signal);
    expect(await run.exited).toBe(0);
    expect(closedOrder(run)).toEqual(['http', 'worker', 'redis']);
  });

  it('exits 1 when shutdown overruns its timeout', async () => {
    const run = start('hang');
    await waitForLine(run, 'started');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(1);
    expect(closedOrder(run)).toEqual(['http', 'worker', 'redis']);
  });

  it('exits 1 when start fails', async () => {
    const run = start('fail-start');
    expect(await run.exited).toBe(1);
    expect(run.lines.find((line) => line.msg === 'start failed')).toBeDefined();
  });

  it('lives on after an unhandled rejection that only says Redis is unreachable', async () => {
    const run = start('redis-rejection');
    await waitForLine(run, 'still alive');
    const warning = run.lines.find((line) => String(line.msg).startsWith('unhandled rejection: the store'));
    expect(warning).toMatchObject({ store: 'Redis' });
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('logs an unhandled rejection and exits 1', async () => {
    const run = start('crash');
    expect(await run.exited).toBe(1);
    expect(run.lines.find((line) => line.msg === 'unhandled rejection')).toBeDefined();
  });
});
