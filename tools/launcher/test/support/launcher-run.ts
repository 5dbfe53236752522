import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, SERVICE_NAMES, tcpAnswers } from '@svc/devstack';
import {
  createTestDatabase,
  deleteKeysWithPrefix,
  pollUntil,
  type TestDatabase,
  testRedisUrl,
} from '@svc/testkit';
import { healthPortVariable } from '../../src/env';

// `pnpm start` driven the way a terminal runs a foreground job, for the launcher's integration
// suites: its own process group, its output captured, polled with bounded waits.

export const ROOT = path.resolve(__dirname, '../../../..');
// ms: one HTTP request to the gateway.
const REQUEST_TIMEOUT_MS = 10_000;
const POLL_MS = 200;

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether any process of the group is alive (kill(-pgid, 0): ESRCH means the group is empty). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // Not `instanceof Error`: errors from Node's own functions come from outside jest's sandbox realm.
    if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ESRCH') return false;
    throw err;
  }
}

/** The parent pid of a live process (`ps`: Linux and macOS). */
export function parentPid(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
}

/**
 * The pid of the child of `parent` whose command line (`ps` args: a service shows its
 * process.title once set) `matches`, if one is running (Linux `ps`).
 */
export function childPid(parent: number, matches: (args: string) => boolean): number | undefined {
  let listing: string;
  try {
    listing = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' });
  } catch {
    return undefined; // ps exits 1 when the process has no children
  }
  for (const row of listing.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(row);
    if (match?.[1] !== undefined && matches(match[2] ?? '')) return Number(match[1]);
  }
  return undefined;
}

/** What `pnpm start` runs (package.json's start script, `exec`ed by pnpm's shell). */
const START_COMMAND = [process.execPath, '--import', 'tsx', 'tools/launcher/src/main.ts'] as const;

export interface LauncherRunOptions {
  /**
   * false: start the launcher as `pnpm start` does, without pnpm (its start script's command),
   * sparing pnpm's own start, about a second of CPU, where pnpm is not what the suite is about.
   * Default true: `pnpm start`, as the README has it.
   */
  viaPnpm?: boolean;
}

/** One `pnpm start`, in its own process group; its stdout and stderr captured as one text. */
export class LauncherRun {
  readonly child: ChildProcess;
  /** The process group: pnpm's pid, or the launcher's without pnpm (detached makes it the group leader). */
  readonly pgid: number;
  output = '';
  status: ExitStatus | undefined;
  readonly exited: Promise<ExitStatus>;

  constructor(env: NodeJS.ProcessEnv, options: LauncherRunOptions = {}) {
    const [command, ...args] = options.viaPnpm === false ? START_COMMAND : ['pnpm', 'start'];
    this.child = spawn(command, args, {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (this.child.pid === undefined) throw new Error('pnpm start did not spawn');
    this.pgid = this.child.pid;
    const append = (chunk: Buffer): void => {
      this.output += chunk.toString('utf8');
    };
    this.child.stdout?.on('data', append);
    this.child.stderr?.on('data', append);
    // 'close': the output has been read to its end by then.
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        this.status = { code, signal };
        resolve(this.status);
      });
    });
  }

  /** Polls `condition` until it holds; fails naming `what` (with the output) on timeout or exit. */
  async waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
    await pollUntil(
      async () => {
        if (await condition()) return true;
        if (this.status !== undefined) {
          throw new Error(
            `pnpm start exited (${JSON.stringify(this.status)}) before ${what}:\n${this.output}`,
          );
        }
        return false;
      },
      { what, timeoutMs, intervalMs: POLL_MS, detail: () => this.output },
    );
  }

  /** The exit status, or a timeout status (code and signal null, `timedOut`) after `timeoutMs`. */
  async exitWithin(timeoutMs: number): Promise<ExitStatus & { timedOut?: true }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<ExitStatus & { timedOut: true }>((resolve) => {
      timer = setTimeout(() => resolve({ code: null, signal: null, timedOut: true }), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** afterAll: SIGKILL whatever of the group is still alive. */
  async kill(): Promise<void> {
    if (groupAlive(this.pgid)) process.kill(-this.pgid, 'SIGKILL');
    await this.exitWithin(5_000);
  }
}

export async function get(url: string, apiKey?: string): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` };
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json };
}

export async function answers200(url: string): Promise<boolean> {
  try {
    return (await get(url)).status === 200;
  } catch {
    return false;
  }
}

/** Distinct free loopback ports (freePort() alone may hand the same one out twice). */
export async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** A `launcher     | <message>` line of the launcher's own output. */
export function launcherLine(message: string): RegExp {
  return new RegExp(`^launcher +\\| ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');
}

/** Runs `checks`; a failure carries what `pnpm start` printed, which is what explains it. */
export async function showingOutput(run: LauncherRun, checks: () => Promise<void>): Promise<void> {
  try {
    await checks();
  } catch (err) {
    if (typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string') {
      err.message += `\n\nOutput of pnpm start:\n${run.output}`;
    }
    throw err;
  }
}

/** What a launcher suite's beforeAll makes: a database, a data dir and free ports, as `pnpm start`'s env. */
export interface LauncherSuiteSetup {
  readonly database: TestDatabase;
  readonly dataDir: string;
  /** The gateway's PORT, the uploads and dashboard DATA_PORTs, then one HEALTH_PORT per service (SERVICE_NAMES order). */
  readonly ports: readonly number[];
  readonly gatewayUrl: string;
  /** This process's environment with the suite's database, Redis prefix, ports and data dir (no HEALTH_PORT). */
  readonly env: NodeJS.ProcessEnv;
}

export async function prepareLauncherSuite(label: string, prefix: string): Promise<LauncherSuiteSetup> {
  const database = await createTestDatabase(label);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${label}-data-`));
  const ports = await distinctFreePorts(3 + SERVICE_NAMES.length);
  const [port, uploadsDataPort, dashboardDataPort, ...healthPorts] = ports;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    BUS_PREFIX: prefix,
    PORT: String(port),
    UPLOADS_DATA_PORT: String(uploadsDataPort),
    DASHBOARD_DATA_PORT: String(dashboardDataPort),
    ...Object.fromEntries(SERVICE_NAMES.map((name, i) => [healthPortVariable(name), String(healthPorts[i])])),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.HEALTH_PORT;
  // The launcher's own keyring in DATA_DIR, whatever the shell running the tests has set.
  delete env.VAULT_KEYRING;
  delete env.VAULT_KEYRING_FILE;
  return { database, dataDir, ports, gatewayUrl: `http://127.0.0.1:${port}`, env };
}

/** What a launcher suite made and must remove (any of it may be missing when set-up failed early). */
export interface LauncherSuiteResources {
  readonly runs: readonly LauncherRun[];
  readonly ports: readonly number[] | undefined;
  readonly database: TestDatabase | undefined;
  readonly prefix: string;
  readonly dataDir: string | undefined;
}

/**
 * afterAll of a launcher suite: every step is tried even when one fails; the first failure is
 * thrown. Killed launchers' services notice within a second (parent-watch.ts) and stop; their ports
 * are awaited so they do not write to Redis after its keys are deleted.
 */
export async function cleanUpLauncherSuite(resources: LauncherSuiteResources): Promise<void> {
  const failures: unknown[] = [];
  const attempt = async (step: () => unknown): Promise<void> => {
    try {
      await step();
    } catch (err) {
      failures.push(err);
    }
  };
  await attempt(async () => {
    for (const run of resources.runs) await run.kill();
    const deadline = Date.now() + 15_000;
    for (const port of resources.ports ?? []) {
      while (Date.now() < deadline && (await tcpAnswers('127.0.0.1', port))) await sleep(200);
    }
  });
  await attempt(() => resources.database?.drop());
  await attempt(() => deleteKeysWithPrefix(testRedisUrl(), resources.prefix));
  await attempt(() => {
    if (resources.dataDir !== undefined) fs.rmSync(resources.dataDir, { recursive: true, force: true });
  });
  if (failures.length > 0) throw failures[0];
}
