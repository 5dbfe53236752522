// The process that runs the shared platform of one jest run (shared-stack.ts starts it, detached,
// as `node --import tsx shared-stack-daemon.ts <dir>`): fake CT providers and one test stack with
// the configuration every suite that shares it needs, its addresses written to <dir>/state.json.
// It ends on SIGTERM (jest's globalTeardown), or by itself when jest's main process is gone; its
// services end when it does (@svc/devstack's parent-death watch is loaded into each of them).
import { appendFileSync } from 'node:fs';
import { SERVICE_NAMES, type ServiceName } from '@svc/devstack';
import { startFakeCtProviders } from './fake-ct-providers';
import {
  processAlive,
  SHARED_STACK_WATCH_PID_ENV,
  type SharedStackState,
  sharedStackPaths,
  writeAtomically,
} from './shared-stack-files';
import { startTestStack, type TestStack } from './stack';
import { testBusEncryptionKeyText } from './test-bus';

/** The whole platform: every service of the one list (@svc/devstack SERVICE_NAMES). */
const SHARED_STACK_SERVICES: readonly ServiceName[] = SERVICE_NAMES;

/**
 * The union of what the sharing suites passed to their own stacks before (each is one of theirs):
 * the crt suites' wait of 10 s (below testkit's 15 s request timeout) and fake providers, the
 * quote-first suites' crt cache off and short BullMQ lock/stall (ms), the file suites' node-only
 * worker (no browser), the spend-cap race's 12 database connections per service.
 */
export const SHARED_STACK_ENV: Readonly<Record<string, string>> = {
  CRT_RUN_WAIT_MS: '10000',
  CRT_CACHE_TTL_MS: '0',
  WORKER_LOCK_DURATION_MS: '2000',
  WORKER_STALLED_INTERVAL_MS: '1000',
  WORKER_RUNTIMES: 'node',
  DATABASE_POOL_MAX: '12',
};

// ms: every service's tsx process compiling at once on a busy 2-core machine.
const START_TIMEOUT_MS = 180_000;
// ms between two looks at jest's main process and at the services.
const WATCH_INTERVAL_MS = 500;
// chars of a crashed service's output quoted in crashed.txt.
const QUOTED_OUTPUT_CHARS = 20_000;

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: shared-stack-daemon.ts <dir>');
const paths = sharedStackPaths(dir);
const watchPid = Number(process.env[SHARED_STACK_WATCH_PID_ENV] ?? process.ppid);

function note(message: string): void {
  appendFileSync(paths.daemonLog, `[${new Date().toISOString()}] ${message}\n`);
}

let stopping: Promise<void> | undefined;
let closeAll: () => Promise<void> = async () => undefined;

function stop(why: string): void {
  if (stopping !== undefined) return;
  note(`stopping: ${why}`);
  stopping = closeAll()
    .catch((err: unknown) => note(`close failed: ${String(err)}`))
    .finally(() => process.exit(0));
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

/** The first service found not running, quoted, once: every suite fails from then on. */
function watchServices(stack: TestStack): () => Promise<void> {
  let reported = false;
  return async () => {
    if (reported || stopping !== undefined) return;
    const gone = SHARED_STACK_SERVICES.find((name) => stack.pid(name) === undefined);
    if (gone === undefined) return;
    reported = true;
    const output = stack.logs(gone).slice(-QUOTED_OUTPUT_CHARS);
    note(`${gone} exited`);
    await writeAtomically(paths.crashed, `the shared test stack's ${gone} exited; its output:\n${output}`);
  };
}

async function main(): Promise<void> {
  note(`starting (pid ${process.pid}, watching ${watchPid})`);
  const fake = await startFakeCtProviders();
  closeAll = () => fake.close();
  const stack = await startTestStack({
    services: SHARED_STACK_SERVICES,
    env: { ...SHARED_STACK_ENV, CRT_SH_URL: fake.crtShUrl, CERTSPOTTER_URL: fake.certSpotterUrl },
    startTimeoutMs: START_TIMEOUT_MS,
    logDir: paths.logDir,
    parentWatch: true,
  }).catch(async (err: unknown) => {
    await fake.close();
    throw err;
  });
  closeAll = async () => {
    await stack.close();
    await fake.close();
  };
  const state: SharedStackState = {
    gatewayUrl: stack.gatewayUrl,
    databaseUrl: stack.databaseUrl,
    redisUrl: stack.redisUrl,
    prefix: stack.prefix,
    storageDir: stack.storageDir,
    busEncryptionKey: testBusEncryptionKeyText(),
    fakeCtUrl: fake.baseUrl,
    healthUrls: Object.fromEntries(SHARED_STACK_SERVICES.map((name) => [name, stack.healthUrl(name)])),
    pids: Object.fromEntries(SHARED_STACK_SERVICES.map((name) => [name, stack.pid(name) ?? 0])),
  };
  if (stopping !== undefined) return; // a SIGTERM came during start-up: no state to publish
  await writeAtomically(paths.state, JSON.stringify(state));
  note(`ready at ${stack.gatewayUrl}`);
  const checkServices = watchServices(stack);
  setInterval(() => {
    if (!processAlive(watchPid)) stop(`process ${watchPid} (jest) is gone`);
    else void checkServices();
  }, WATCH_INTERVAL_MS);
}

main().catch(async (err: unknown) => {
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  note(`failed: ${message}`);
  await writeAtomically(paths.failed, `the shared test stack did not start:\n${message}`);
  process.exit(1);
});
