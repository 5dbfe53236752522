import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@svc/devstack';
import { z } from 'zod';

// The files through which the suites of one jest run share one platform (shared-stack.ts). They
// live in a directory made by jest's globalSetup (prepareSharedStackDir), named to the workers by
// SVC_SHARED_STACK_DIR, and removed by its globalTeardown (stopSharedStack).

/** Env naming the run's directory; jest workers inherit it from globalSetup. */
export const SHARED_STACK_DIR_ENV = 'SVC_SHARED_STACK_DIR';
/** Env naming the pid the platform must not outlive (jest's main process). */
export const SHARED_STACK_WATCH_PID_ENV = 'SVC_SHARED_STACK_WATCH_PID';

// ms between SIGTERM and SIGKILL of the daemon at teardown: its stack's services get 15 s each.
const STOP_TIMEOUT_MS = 40_000;
// ms between two checks while the daemon exits.
const STOP_POLL_MS = 100;

export interface SharedStackPaths {
  dir: string;
  /** Made with O_EXCL by the first suite to ask: whoever creates it starts the daemon. */
  lock: string;
  /** The daemon's pid, written by the suite that started it. */
  daemonPid: string;
  /** The daemon's own output (start-up errors land here). */
  daemonLog: string;
  /** SharedStackState as JSON, written (by rename) once every service is ready. */
  state: string;
  /** Why the platform could not start; written instead of `state`. */
  failed: string;
  /** Which service exited unexpectedly, with its output; from then on every suite fails. */
  crashed: string;
  /** `<service>.log`: each service's output. */
  logDir: string;
}

export function sharedStackPaths(dir: string): SharedStackPaths {
  return {
    dir,
    lock: join(dir, 'lock'),
    daemonPid: join(dir, 'daemon.pid'),
    daemonLog: join(dir, 'daemon.log'),
    state: join(dir, 'state.json'),
    failed: join(dir, 'failed.txt'),
    crashed: join(dir, 'crashed.txt'),
    logDir: dir,
  };
}

export const SharedStackState = z.object({
  gatewayUrl: z.string(),
  databaseUrl: z.string(),
  redisUrl: z.string(),
  prefix: z.string(),
  storageDir: z.string(),
  /** BUS_ENCRYPTION_KEY of the services (base64), so a suite's own bus can read their messages. */
  busEncryptionKey: z.string(),
  /** Base URL of the fake CT providers (their read-only call counters: fake-ct-providers.ts CALLS_PATH). */
  fakeCtUrl: z.string(),
  /** Service name → base URL of its health server. */
  healthUrls: z.partialRecord(z.enum(SERVICE_NAMES), z.string()),
  /** Service name → pid at start-up (the platform is never restarted: a crash fails the suites). */
  pids: z.partialRecord(z.enum(SERVICE_NAMES), z.number()),
});
export type SharedStackState = z.infer<typeof SharedStackState>;

export function readSharedStackState(path: string): SharedStackState {
  return SharedStackState.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/** Writes a file so a reader never sees half of it (write aside, then rename). */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const aside = `${path}.${process.pid}.tmp`;
  await writeFile(aside, text);
  await rename(aside, path);
}

/** True while a process with this pid exists (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** jest globalSetup: a fresh directory for this run, named to the workers through process.env. */
export async function prepareSharedStackDir(): Promise<void> {
  process.env[SHARED_STACK_DIR_ENV] = await mkdtemp(join(tmpdir(), 'svc-shared-stack-'));
  process.env[SHARED_STACK_WATCH_PID_ENV] = String(process.pid);
}

/**
 * jest globalTeardown: stops the shared platform if a suite started one (SIGTERM to the daemon, which
 * stops its services, drops the database and deletes its Redis keys; SIGKILL to its process group
 * after STOP_TIMEOUT_MS), then removes the directory.
 */
export async function stopSharedStack(): Promise<void> {
  const dir = process.env[SHARED_STACK_DIR_ENV];
  if (dir === undefined) return;
  const paths = sharedStackPaths(dir);
  if (existsSync(paths.daemonPid)) {
    const pid = Number(await readFile(paths.daemonPid, 'utf8'));
    if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) {
      process.kill(pid, 'SIGTERM');
      const deadline = Date.now() + STOP_TIMEOUT_MS;
      while (processAlive(pid) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
      }
      // The daemon leads its own process group (spawned detached): this reaches its services too.
      if (processAlive(pid)) process.kill(-pid, 'SIGKILL');
    }
  }
  await rm(dir, { recursive: true, force: true });
  delete process.env[SHARED_STACK_DIR_ENV];
}
