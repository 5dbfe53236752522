import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

// ms: a tsx child compiles its imports before it listens; on a busy 2-core box that takes seconds.
const START_TIMEOUT_MS = 30_000;
// ms: between SIGTERM and SIGKILL in stop().
const STOP_TIMEOUT_MS = 10_000;

export interface ChildServer {
  /** The JSON object the child printed on its first stdout line once listening (port, URLs). */
  announced: Record<string, unknown>;
  child: ChildProcess;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/** The child's first stdout line; rejects when it exits or stays silent for START_TIMEOUT_MS. */
function firstLine(child: ChildProcess, script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const stdout = child.stdout;
    if (stdout === null) {
      reject(new Error(`${script}: no stdout pipe`));
      return;
    }
    const timer = setTimeout(
      () => finish(new Error(`${script} announced nothing within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end >= 0) finish(undefined, buffered.slice(0, end));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      finish(new Error(`${script} exited (${signal ?? `code ${code}`}) before it announced its address`));
    };
    function finish(err: Error | undefined, line = ''): void {
      clearTimeout(timer);
      stdout?.off('data', onData);
      child.off('exit', onExit);
      stdout?.resume(); // later output is not read: keep the pipe from filling up
      if (err === undefined) resolve(line);
      else reject(err);
    }
    stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Runs `bench/src/<script>` with `node --import tsx` in its own process (its own core share, not
 * the load generator's event loop) and waits for its first stdout line, a JSON object that says
 * where it listens. The child's stderr is passed through; `env` is added to this process's.
 */
export async function startChildServer(
  script: string,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.once('error', (err) => console.error(`${script}: ${err.message}`));
  try {
    const line = await firstLine(child, script);
    const announced: unknown = JSON.parse(line);
    if (typeof announced !== 'object' || announced === null) throw new Error(`${script} announced "${line}"`);
    return {
      announced: { ...announced },
      child,
      stop: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const kill = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        child.kill('SIGTERM');
        await closed;
        clearTimeout(kill);
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** A string field of the announced object, or an error naming the script and the field. */
export function announcedString(server: ChildServer, field: string): string {
  const value = server.announced[field];
  if (typeof value !== 'string') throw new Error(`child server did not announce a string "${field}"`);
  return value;
}

/** The bare express 5 + helmet baseline (hello-server.ts) in its own process, and its URL. */
export async function startHelloServer(): Promise<{ url: string; server: ChildServer }> {
  const server = await startChildServer('hello-server.ts');
  const { port } = server.announced;
  if (typeof port !== 'number') throw new Error('hello-server did not announce its port');
  return { url: `http://127.0.0.1:${port}`, server };
}
