import fs from 'node:fs';
import path from 'node:path';
import type { DevstackLogger } from './logger';
import { sleep } from './net';

/** Marker in the command line of the process that owns a live embedded server (our runner script). */
export const RUNNER_MARKER = 'embedded-postgres-runner';

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return typeof err === 'object' && err !== null && 'code' in err && err.code === 'EPERM';
  }
}

/** Arguments from /proc/<pid>/cmdline; undefined where /proc is unavailable (not Linux). */
function commandLine(pid: number): string[] | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
}

/** A postmaster started on `dataDir`: `…/postgres -D <dataDir> -p <port> …` (as the runner starts it). */
function isPostmasterFor(args: string[], dataDir: string): boolean {
  const flag = args.indexOf('-D');
  return path.basename(args[0] ?? '') === 'postgres' && flag >= 0 && args[flag + 1] === path.resolve(dataDir);
}

function parentPid(pid: number): number | undefined {
  try {
    const match = /^PPid:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** First line of `<dataDir>/postmaster.pid` is the postmaster's pid; undefined when there is no file. */
export function readPostmasterPid(dataDir: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  return Number.isNaN(pid) ? -1 : pid;
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isProcessAlive(pid)) return true;
    await sleep(100);
  }
  return !isProcessAlive(pid);
}

/**
 * Clears what a killed earlier run left in `dataDir`, so PostgreSQL starts again:
 * - postmaster.pid naming a dead pid, or a pid the kernel has since given to an unrelated process
 *   (PostgreSQL refuses to start while that pid is alive, and containers reuse pids quickly): removed;
 * - a postmaster for this data dir still running with no runner of ours above it (its runner was
 *   SIGKILLed): stopped with SIGINT (fast shutdown; a crash restart recovers from WAL anyway);
 * - a postmaster whose runner is alive: another process is using this data dir right now: throws.
 */
export async function recoverStalePostmaster(dataDir: string, logger: DevstackLogger): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const pid = readPostmasterPid(dataDir);
  if (pid === undefined) return;
  const cmdline = isProcessAlive(pid) ? commandLine(pid) : undefined;
  const ours = cmdline !== undefined && isPostmasterFor(cmdline, dataDir);
  if (!isProcessAlive(pid) || (cmdline !== undefined && !ours)) {
    logger.warn(`removing stale ${pidFile} (pid ${pid} is not a PostgreSQL server for this data directory)`);
    fs.rmSync(pidFile, { force: true });
    return;
  }
  if (cmdline === undefined) return; // no /proc: let PostgreSQL judge the lock file itself
  const parent = parentPid(pid);
  const parentCmd = parent === undefined ? undefined : commandLine(parent);
  if (parentCmd?.some((arg) => arg.includes(RUNNER_MARKER))) {
    throw new Error(
      `the embedded PostgreSQL in ${dataDir} is already running (postmaster pid ${pid}, started by pid ${parent}); ` +
        'stop that process first or use another data directory',
    );
  }
  logger.warn(
    `stopping orphaned PostgreSQL server (pid ${pid}) left running in ${dataDir} by an earlier run`,
  );
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, 15_000))) {
    process.kill(pid, 'SIGKILL');
    await waitForExit(pid, 5_000);
  }
  fs.rmSync(pidFile, { force: true });
}
