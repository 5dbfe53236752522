import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import { findWorkspaceRoot, type ServiceName } from '@svc/devstack';
import { type CreateApiKeyOptions, createTestApiKey, type TestApiKey } from './api-keys';
import { CALLS_PATH, FakeCtCallsAnswer, type FakeCtProvider } from './fake-ct-providers';
import { type FetchResult, fetchFull, type StackFetchInit, sleep } from './http';
import {
  processAlive,
  readSharedStackState,
  SHARED_STACK_DIR_ENV,
  type SharedStackPaths,
  type SharedStackState,
  sharedStackPaths,
} from './shared-stack-files';
import type { StackApi } from './stack-api';

// ms a suite waits for the shared platform to be ready: the daemon's own start timeout (180 s)
// plus its fake providers and database; past it the suite fails naming the daemon's log.
const ATTACH_TIMEOUT_MS = 240_000;
/**
 * ms for a suite's beforeAll that calls sharedTestStack(): the first suite of a run waits for the
 * whole platform to start; past ATTACH_TIMEOUT_MS it fails with the daemon's log, before jest's own
 * timeout would fail it with nothing.
 */
export const SHARED_STACK_BEFORE_ALL_MS = ATTACH_TIMEOUT_MS + 30_000;
// ms between two looks at the state file while the platform starts.
const ATTACH_POLL_MS = 200;

/**
 * The one platform of a jest run that suites only calling its API share (sharedTestStack). The
 * same API as a private stack; close() only lets go of this suite's own database client: the
 * platform stays up for the other suites and jest's globalTeardown stops it.
 */
export interface SharedTestStack extends StackApi {
  /**
   * Requests the platform's fake CT provider received for `apex` (each Cert Spotter page counts).
   * Every suite of the run shares the providers: count only apexes no other suite asks for.
   */
  fakeCtCalls(provider: FakeCtProvider, apex: string): Promise<number>;
  close(): Promise<void>;
}

class SharedStack implements SharedTestStack {
  readonly gatewayUrl: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly prefix: string;
  readonly storageDir: string;
  readonly busEncryptionKeys: readonly Uint8Array[];
  private prisma: PrismaClient | undefined;

  constructor(
    private readonly paths: SharedStackPaths,
    private readonly state: SharedStackState,
  ) {
    this.gatewayUrl = state.gatewayUrl;
    this.databaseUrl = state.databaseUrl;
    this.redisUrl = state.redisUrl;
    this.prefix = state.prefix;
    this.storageDir = state.storageDir;
    this.busEncryptionKeys = [Buffer.from(state.busEncryptionKey, 'base64')];
  }

  /** Throws, quoting the service or the daemon's log, once the platform or one of its processes is gone. */
  private assertRunning(): void {
    if (existsSync(this.paths.crashed)) throw new Error(readFileSync(this.paths.crashed, 'utf8'));
    const pid = daemonPid(this.paths);
    if (pid !== undefined && !processAlive(pid)) {
      throw new Error(`the shared test stack's daemon (pid ${pid}) is gone:\n${daemonLogTail(this.paths)}`);
    }
  }

  healthUrl(name: ServiceName): string {
    const url = this.state.healthUrls[name];
    if (url === undefined) throw new Error(`${name} is not part of the shared test stack`);
    return url;
  }

  pid(name: ServiceName): number | undefined {
    return existsSync(this.paths.crashed) ? undefined : this.state.pids[name];
  }

  logs(name: ServiceName): string {
    this.healthUrl(name); // throws for a service the platform does not run
    const file = join(this.paths.logDir, `${name}.log`);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  async createApiKey(options: CreateApiKeyOptions): Promise<TestApiKey> {
    this.assertRunning();
    // A small pool: every suite of the run has one on the shared database.
    this.prisma ??= createPrismaClient(this.databaseUrl, { max: 2 });
    return createTestApiKey(this.prisma, options);
  }

  async fetch(path: string, init?: StackFetchInit): Promise<FetchResult> {
    this.assertRunning();
    try {
      return await fetchFull(`${this.gatewayUrl}${path}`, init);
    } catch (err) {
      this.assertRunning(); // a request that failed because the platform went away says so
      throw err;
    }
  }

  async fakeCtCalls(provider: FakeCtProvider, apex: string): Promise<number> {
    this.assertRunning();
    const query = new URLSearchParams({ provider, apex });
    const answer = await fetchFull(`${this.state.fakeCtUrl}${CALLS_PATH}?${query.toString()}`);
    if (answer.status !== 200) throw new Error(`fake CT calls: ${answer.status} ${answer.text}`);
    return FakeCtCallsAnswer.parse(answer.json).calls;
  }

  async close(): Promise<void> {
    const prisma = this.prisma;
    this.prisma = undefined;
    await prisma?.$disconnect();
  }
}

function sharedDir(): string {
  const dir = process.env[SHARED_STACK_DIR_ENV];
  if (dir === undefined) {
    throw new Error(
      `sharedTestStack() needs ${SHARED_STACK_DIR_ENV}, set by jest/integration-setup.ts: run the suite through jest's integration project`,
    );
  }
  return dir;
}

/** True for the one caller (across jest workers) that creates the lock file: it starts the daemon. */
function takeStartLock(paths: SharedStackPaths): boolean {
  try {
    closeSync(openSync(paths.lock, 'wx'));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function startDaemon(paths: SharedStackPaths): void {
  const rootDir = findWorkspaceRoot(__dirname);
  const log = openSync(paths.daemonLog, 'a');
  // Detached: its own process group (teardown may SIGKILL the group) and not tied to this worker,
  // which may finish its suites long before the run ends.
  const daemon = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'shared-stack-daemon.ts'), paths.dir],
    { cwd: rootDir, env: process.env, detached: true, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  daemon.unref();
  // Aside, then renamed: a suite polling for it never reads half a pid.
  writeFileSync(`${paths.daemonPid}.tmp`, String(daemon.pid ?? 0));
  renameSync(`${paths.daemonPid}.tmp`, paths.daemonPid);
}

/** The daemon's pid once the suite that started it wrote it down. */
function daemonPid(paths: SharedStackPaths): number | undefined {
  if (!existsSync(paths.daemonPid)) return undefined;
  const pid = Number(readFileSync(paths.daemonPid, 'utf8'));
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function daemonLogTail(paths: SharedStackPaths): string {
  return existsSync(paths.daemonLog) ? readFileSync(paths.daemonLog, 'utf8').slice(-4_000) : '';
}

async function waitReady(paths: SharedStackPaths): Promise<SharedStackState> {
  const deadline = Date.now() + ATTACH_TIMEOUT_MS;
  for (;;) {
    if (existsSync(paths.failed)) throw new Error(readFileSync(paths.failed, 'utf8'));
    if (existsSync(paths.state)) return readSharedStackState(paths.state);
    const pid = daemonPid(paths);
    if (pid !== undefined && !processAlive(pid) && !existsSync(paths.state)) {
      throw new Error(`the shared test stack's daemon (pid ${pid}) exited:\n${daemonLogTail(paths)}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the shared test stack was not ready within ${ATTACH_TIMEOUT_MS} ms (${paths.dir}):\n${daemonLogTail(paths)}`,
      );
    }
    await sleep(ATTACH_POLL_MS);
  }
}

/**
 * The platform shared by the suites of this jest run that only call its API: every service of the
 * one list (@svc/devstack SERVICE_NAMES), with the fake CT providers and the configuration of SHARED_STACK_ENV
 * (shared-stack-daemon.ts). The first suite to ask starts it (the others wait for it); jest's
 * globalTeardown stops it. Suites isolate themselves by making their own clients (createApiKey);
 * a suite that kills, restarts or reconfigures a service, or counts anything platform-wide,
 * starts a private stack with startTestStack() instead. close() it in afterAll like a private one:
 * that closes only the suite's own database client.
 */
export async function sharedTestStack(): Promise<SharedTestStack> {
  const paths = sharedStackPaths(sharedDir());
  if (takeStartLock(paths)) startDaemon(paths);
  return new SharedStack(paths, await waitReady(paths));
}
