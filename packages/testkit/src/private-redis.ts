import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { freePort, pingRedis } from '@svc/devstack';
import { sleep } from './http';

// ms: a fresh redis-server without data answers PING in ~50 ms; generous for 2 busy cores.
const READY_TIMEOUT_MS = 15_000;
// ms between two PINGs while it starts.
const PING_INTERVAL_MS = 50;

/**
 * A redis-server of one suite's own, on a free loopback port, that the suite may kill and start
 * again: the fault suites' "Redis restarted without its data" (issue 15). It keeps nothing on disk
 * (no AOF, no RDB snapshots), so every start is empty, as when a Redis without persistence (or one
 * that lost its last second) comes back. The jest run's shared Redis is never touched.
 */
export interface PrivateRedis {
  /** `redis://127.0.0.1:<port>`: the same address across restarts. */
  readonly url: string;
  /** SIGKILL (no shutdown save: there is no persistence anyway), then a new empty server on the same port. */
  restartEmpty(): Promise<void>;
  /** Ends the server. Idempotent. */
  stop(): Promise<void>;
}

async function spawnEmpty(port: number, url: string): Promise<ChildProcess> {
  // --dir: nothing is written with persistence off, but never into the workspace if something were.
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--appendonly',
    'no',
    '--save',
    '',
    '--dir',
    tmpdir(),
  ];
  const child = spawn('redis-server', [...args, '--daemonize', 'no'], { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  child.once('error', () => {
    exited = true;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await pingRedis(url, 500))) {
    if (exited || Date.now() >= deadline) {
      child.kill('SIGKILL');
      throw new Error(`private redis-server on port ${port} did not start (is redis-server on PATH?)`);
    }
    await sleep(PING_INTERVAL_MS);
  }
  return child;
}

async function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined = await spawnEmpty(port, url);
  // A test file that ends without stop() must not leave a redis-server behind.
  const onExit = (): void => {
    child?.kill('SIGKILL');
  };
  process.once('exit', onExit);
  return {
    url,
    async restartEmpty() {
      if (child !== undefined) await killAndWait(child);
      child = undefined;
      child = await spawnEmpty(port, url);
    },
    async stop() {
      process.off('exit', onExit);
      if (child !== undefined) await killAndWait(child);
      child = undefined;
    },
  };
}
