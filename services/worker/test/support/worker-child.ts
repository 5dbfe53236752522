import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { serviceNodeArguments, testBusEncryptionKeyText } from '@svc/testkit';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
/** ms: how long start-up may take (on a busy 2-core machine; longer from sources under tsx). */
const START_TIMEOUT_MS = 30_000;

export interface WorkerChild {
  /** Every line the worker wrote (stdout and stderr). */
  readonly output: string[];
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once (a crashed worker: no shutdown, its jobs keep their locks until they lapse). */
  kill(): Promise<void>;
}

/**
 * The real worker process (the run's bundle as `pnpm start` runs it, or its sources under tsx as the
 * images do: serviceNodeArguments) with `env` on top of this process's environment and the test BUS_ENCRYPTION_KEY. Resolves once it logged
 * `worker announced` (heartbeat written, job consumers started).
 */
export async function startWorkerChild(env: NodeJS.ProcessEnv): Promise<WorkerChild> {
  const child: ChildProcess = spawn(process.execPath, serviceNodeArguments('worker'), {
    cwd: ROOT,
    // The key of this process's test buses (createTestBus), unless the test sets its own.
    env: { ...process.env, BUS_ENCRYPTION_KEY: testBusEncryptionKeyText(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const announced = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker did not start:\n${output.join('\n')}`)),
      START_TIMEOUT_MS,
    );
    const onLine = (line: string) => {
      output.push(line);
      if (line.includes('"msg":"worker announced"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    collectLines(child.stdout, onLine);
    collectLines(child.stderr, onLine);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code ?? signal}) before it started:\n${output.join('\n')}`));
    });
  });

  const stop = async (graceMs = 8_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  try {
    await announced;
  } catch (err) {
    await stop(1_000);
    throw err;
  }
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  return { output, stop, kill };
}

function collectLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let pending = '';
  stream?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}
