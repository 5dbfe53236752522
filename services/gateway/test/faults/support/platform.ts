import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import { platformService } from '@svc/devstack';
import {
  executionProbe,
  type PrivateRedis,
  type RunExecutions,
  readExecutions,
  type ServiceName,
  startPrivateRedis,
  startTestStack,
  type TestStack,
} from '@svc/testkit';

/**
 * The platform of the fault suites (issue 15): the run path's services as real processes, every
 * one of them reaching PostgreSQL through its own TCP proxy (so the test can take the database away
 * from all of them at once, as a host that goes down), optionally on a redis-server of the suite's
 * own (so it can be restarted empty), with every execution of pii-redact counted by the execution
 * probe, and a Prisma client straight to the database for the audits.
 */

/** The run path of a paid run: no uploads or vault (pii-redact takes no files). */
export const RUN_PATH_SERVICES: readonly ServiceName[] = [
  'registry',
  'wallet',
  'orchestrator',
  'worker',
  'gateway',
];
/** The services of the run path that use PostgreSQL (the one service list says which), each behind its own proxy. */
const DATABASE_SERVICES: readonly ServiceName[] = RUN_PATH_SERVICES.filter(
  (name) => platformService(name).database,
);
/** The paid capability of the load: cheap, pure, deterministic. */
export const LOAD_SLUG = 'pii-redact';

export interface FaultPlatform {
  stack: TestStack;
  /** The suite's own Redis, when asked for. */
  redis: PrivateRedis | undefined;
  prisma: PrismaClient;
  /** Executions of pii-redact per run id, so far. */
  executions(): Map<string, RunExecutions>;
  /** Cuts every service's way to PostgreSQL (refused, open connections reset). */
  cutDatabase(): Promise<void>;
  restoreDatabase(): Promise<void>;
  /**
   * SIGSTOP: the process keeps its connections but does nothing, as a long GC pause or a slow
   * capability would; the messages for it pile up in Redis. `resume` (SIGCONT) undoes it.
   */
  pause(name: ServiceName): void;
  resume(name: ServiceName): void;
  close(): Promise<void>;
}

export interface FaultPlatformOptions {
  privateRedis: boolean;
  env?: Record<string, string>;
}

export async function startFaultPlatform(options: FaultPlatformOptions): Promise<FaultPlatform> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-faults-'));
  const executionsFile = join(dir, 'executions.log');
  const probe = executionProbe(executionsFile, [LOAD_SLUG]);
  const redis = options.privateRedis ? await startPrivateRedis() : undefined;
  let stack: TestStack;
  try {
    stack = await startTestStack({
      services: RUN_PATH_SERVICES,
      databaseProxyFor: DATABASE_SERVICES,
      nodeImports: probe.nodeImports,
      env: {
        ...probe.env,
        // A job held by a killed worker is picked up again within ~10 s (lock) + 1 s (stall check).
        // The lock outlasts every pause the suites make (SIGSTOP ≤ 3 s; BullMQ renews it at half its
        // length), so a paused worker never loses its active job to stall recovery: a pause is only a
        // way to build a backlog here, and BullMQ re-running a live worker's job is not the fault tested.
        WORKER_LOCK_DURATION_MS: '10000',
        WORKER_STALLED_INTERVAL_MS: '1000',
        // Every service on the suite's own Redis (env is applied last, over the stack's REDIS_URL).
        ...(redis === undefined ? {} : { REDIS_URL: redis.url }),
        ...options.env,
      },
      // ms: five tsx processes compiling at once on 2 busy cores.
      startTimeoutMs: 120_000,
      quiet: true,
    });
  } catch (err) {
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const prisma = createPrismaClient(stack.databaseUrl, { max: 2 });
  const links = DATABASE_SERVICES.map((name) => stack.databaseLink(name));
  return {
    stack,
    redis,
    prisma,
    executions: () => readExecutions(executionsFile),
    cutDatabase: async () => {
      await Promise.all(links.map((link) => link.cut()));
    },
    restoreDatabase: async () => {
      await Promise.all(links.map((link) => link.restore()));
    },
    pause: (name) => signal(stack, name, 'SIGSTOP'),
    resume: (name) => signal(stack, name, 'SIGCONT'),
    close: async () => {
      await prisma.$disconnect();
      await stack.close();
      await redis?.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function signal(stack: TestStack, name: ServiceName, which: NodeJS.Signals): void {
  const pid = stack.pid(name);
  if (pid === undefined) throw new Error(`${name} is not running`);
  process.kill(pid, which);
}
