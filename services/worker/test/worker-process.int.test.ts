import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type Bus, createBus, createRedis, enqueueJob, jobQueueName } from '@svc/bus';
import { type MessageCatalog, messageCatalog } from '@svc/capabilities';
import { createLogger } from '@svc/log';
import {
  pollUntil,
  serviceNodeArguments,
  testBusEncryptionKeys,
  testBusEncryptionKeyText,
} from '@svc/testkit';
import { Queue } from 'bullmq';
import { z } from 'zod';

// The real worker process (as compose and the launcher start it) against a real Redis, under a bus
// prefix of its own: an echo job completes, the heartbeat keys appear with a TTL, /healthz and
// /readyz answer, and SIGTERM ends it cleanly (exit 0, keys deleted) within a few seconds.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT = path.resolve(__dirname, '..', '..', '..');
const PREFIX = `wkt${randomBytes(4).toString('hex')}`;
const RUNTIMES = ['node', 'python'];

let bus: Bus<MessageCatalog>;
/** The test's own connection for inspecting keys (the bus producer fails commands until it is ready). */
let redis: ReturnType<typeof createRedis>;
let queue: Queue;
let child: ChildProcess | undefined;
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
const logLines: string[] = [];
let healthPort: number | undefined;

beforeAll(() => {
  const logger = createLogger({ service: 'worker-test', level: 'silent' });
  bus = createBus({
    redisUrl: REDIS_URL,
    prefix: PREFIX,
    logger,
    encryptionKeys: testBusEncryptionKeys(),
    catalog: messageCatalog,
  });
  redis = createRedis(REDIS_URL, { role: 'worker', name: 'worker-test', logger });
  queue = new Queue(jobQueueName('system.echo'), { connection: redis, prefix: PREFIX });

  child = spawn(process.execPath, serviceNodeArguments('worker'), {
    cwd: ROOT,
    env: {
      ...process.env,
      REDIS_URL,
      BUS_PREFIX: PREFIX,
      BUS_ENCRYPTION_KEY: testBusEncryptionKeyText(),
      HEALTH_PORT: '0',
      WORKER_RUNTIMES: RUNTIMES.join(','),
      WORKER_CONCURRENCY: '2',
      // One capability's own slots over WORKER_CONCURRENCY (decisions RW4).
      WORKER_SLOTS: 'crt=5',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: '5000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      logLines.push(line);
      const port = listeningPort(line);
      if (port !== undefined) healthPort = port;
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
  const started = child;
  exited = new Promise((resolve) => started.once('exit', (code, signal) => resolve({ code, signal })));
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await bus.close();
  await redis.quit();
});

const ListeningLine = z.object({ msg: z.literal('listening'), port: z.number().int() });

/** The port of a pino `{"msg":"listening","port":N}` line, if `line` is one. */
function listeningPort(line: string): number | undefined {
  try {
    const parsed = ListeningLine.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data.port : undefined;
  } catch {
    return undefined;
  }
}

/** pollUntil that stops early when the worker exits, with its output in the failure. */
function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  return pollUntil(
    async () => {
      const value = await probe();
      if (value === undefined && child?.exitCode !== null)
        throw new Error(`worker exited while waiting for ${what}:\n${logLines.join('\n')}`);
      return value;
    },
    { what, timeoutMs, intervalMs: 100, detail: () => `worker output:\n${logLines.join('\n')}` },
  );
}

async function heartbeatKeys(): Promise<string[]> {
  return (await redis.keys(`${PREFIX}:workers:*`)).sort();
}

describe('worker process', () => {
  it('announces each runtime with a heartbeat key that expires on its own', async () => {
    const keys = await waitFor('heartbeat keys', async () => {
      const found = await heartbeatKeys();
      return found.length === RUNTIMES.length ? found : undefined;
    });
    const workerIds = new Set<string>();
    for (const [index, runtime] of [...RUNTIMES].sort().entries()) {
      const key = keys[index] ?? '';
      const match = new RegExp(`^${PREFIX}:workers:${runtime}:([^:]+)$`).exec(key);
      expect(match).not.toBeNull();
      workerIds.add(match?.[1] ?? '');
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(15_000);
      const value: unknown = JSON.parse((await redis.get(key)) ?? 'null');
      // Slots per capability served: crt's own, the others WORKER_CONCURRENCY's.
      expect(value).toMatchObject({
        runtime,
        pid: child?.pid,
        slots: { crt: 5, 'pii-redact': 2, 'csv-profile': 2 },
      });
    }
    // One worker id for all its runtimes.
    expect(workerIds.size).toBe(1);
  });

  it('serves /healthz and /readyz on the port it picked', async () => {
    const port = await waitFor('the listening line', async () => healthPort);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ok: true, checks: { redis: { ok: true } } });
  });

  it('completes a system.echo job', async () => {
    const message = `hello ${randomBytes(4).toString('hex')}`;
    const { jobId } = await enqueueJob(bus, 'system.echo', { message }, { jobId: `echo-${PREFIX}` });
    const job = await waitFor('the echo job to complete', async () => {
      const found = await queue.getJob(jobId);
      return found?.finishedOn ? found : undefined;
    });
    expect(job.failedReason).toBeUndefined();
    expect(job.returnvalue).toEqual({ message });
  });

  it('exits 0 within a few seconds of SIGTERM and withdraws its heartbeat', async () => {
    expect(child?.exitCode).toBeNull();
    const sentAt = Date.now();
    child?.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      exited,
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), 8_000);
      }),
    ]);
    clearTimeout(timer);
    expect(outcome).toEqual({ code: 0, signal: null });
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    expect(await heartbeatKeys()).toEqual([]);
  });
});
