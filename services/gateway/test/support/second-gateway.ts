import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@svc/devstack';
import { pollUntil, type StackApi, serviceNodeArguments } from '@svc/testkit';

const ROOT = path.resolve(__dirname, '../../../..');
// ms: a service's start on 2 busy cores (longer from sources under tsx) takes a while.
const START_TIMEOUT_MS = 60_000;
// ms: SIGTERM first (graceful shutdown), SIGKILL after this.
const STOP_TIMEOUT_MS = 15_000;

/** Another gateway process of a test stack, private or shared (a stack's startReplica refuses the gateway). */
export interface SecondGateway {
  readonly url: string;
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Starts the gateway (the run's bundle, or `services/gateway/src/main.ts`: serviceNodeArguments) once more on its own PORT and HEALTH_PORT, against the
 * stack's database, Redis and BUS_PREFIX: a second replica behind the same load balancer would see
 * the same. Ready when its /readyz answers 200. Against the shared platform (sharedTestStack) it is
 * one more replica of the run's gateway: `env` configures this process only (e.g. its own
 * RATE_LIMIT_MULTIPLIER), the shared one keeps its configuration; it serves the `keys` RPC beside
 * the shared gateway, from the same database, until stop().
 */
export async function startSecondGateway(
  stack: StackApi,
  env: Record<string, string>,
): Promise<SecondGateway> {
  const [busKey] = stack.busEncryptionKeys;
  if (busKey === undefined) throw new Error('the stack names no bus encryption key');
  const port = await freePort();
  let healthPort = await freePort();
  while (healthPort === port) healthPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, serviceNodeArguments('gateway'), {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: stack.databaseUrl,
      REDIS_URL: stack.redisUrl,
      BUS_PREFIX: stack.prefix,
      // The key the stack gives its services (the shared platform's daemon has its own), so both
      // gateways read the bus.
      BUS_ENCRYPTION_KEY: Buffer.from(busKey).toString('base64'),
      PORT: String(port),
      HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  const ready = async (): Promise<boolean> => {
    if (child.exitCode !== null) throw new Error('second gateway exited');
    try {
      return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) })).status === 200;
    } catch {
      return false; // not listening yet
    }
  };
  try {
    await pollUntil(ready, { timeoutMs: START_TIMEOUT_MS, intervalMs: 200 });
  } catch {
    await stop();
    throw new Error(`second gateway did not become ready:\n${chunks.join('').slice(-5_000)}`);
  }
  return { url, logs: () => chunks.join(''), stop };
}
