import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chooseEmbeddedPort, rememberPort } from './embedded-port';
import type { DevstackLogger } from './logger';
import { effectiveDataDir, reachableBinariesModule } from './postgres-user-access';
import { RUNNER_MARKER, recoverStalePostmaster } from './postmaster-pid';

/**
 * The embedded server's superuser password. It is a development server that listens on 127.0.0.1
 * only, and its URL (with this password) is written to runtime.json for the operator CLI, so a
 * fixed, well-known value costs nothing and keeps the data directory reusable across runs.
 */
const EMBEDDED_PASSWORD = 'postgres';
/** initdb + first start takes ~3-10 s on a slow disk; a restart on existing data < 2 s. */
const READY_TIMEOUT_MS = 60_000;
/** Fast shutdown (SIGINT) normally takes well under a second. */
const STOP_TIMEOUT_MS = 15_000;
/** Log lines kept to explain a failed start. */
const LOG_TAIL_LINES = 40;

const PERMISSION_HINT =
  ' (as root, the server runs as the `postgres` system user: every directory above the data directory must be searchable by it, e.g. `chmod o+x`)';

const RUNNER_PATH = path.join(__dirname, `${RUNNER_MARKER}.mjs`);

export interface EmbeddedServer {
  /** Where the data actually is (see postgres-user-access.ts: may differ from the one asked for). */
  dataDir: string;
  /** The port it listens on (embedded-port.ts), and why when it is not the default. */
  port: number;
  portNote?: string;
  /** URL to the `postgres` database, as the `postgres` superuser. */
  adminUrl: string;
  stop(): Promise<void>;
}

type RunnerMessage =
  | { type: 'log'; line: string }
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

function isRunnerMessage(value: unknown): value is RunnerMessage {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}

/**
 * An initialised cluster has PG_VERSION. A directory with files but no PG_VERSION is a half-finished
 * initdb (or not a cluster at all): refuse rather than delete something we do not understand.
 */
function needsInitialise(dataDir: string): boolean {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return false;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new Error(
      `${dataDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION; an interrupted first start?). ` +
        'Delete the directory to let the embedded PostgreSQL initialise it again.',
    );
  }
  return true;
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL on 127.0.0.1 with its data in
 * `dataDir`, through the runner child process (see embedded-postgres-runner.mjs for why). The
 * port: `port` when given (it must be free), else as embedded-port.ts chooses and remembers it.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  defaultPort: number;
  portVariable?: string;
  logger: DevstackLogger;
}): Promise<EmbeddedServer> {
  const { logger } = options;
  const { dataDir, relocated } = effectiveDataDir(options.dataDir);
  if (relocated) {
    logger.info(
      `${path.resolve(options.dataDir)} cannot be entered by the \`postgres\` user the server runs as (we run as ` +
        `root, and a directory above it is not searchable by others): keeping its data in ${dataDir} instead`,
    );
  }
  const binariesModule = reachableBinariesModule();
  await recoverStalePostmaster(dataDir, logger);
  const initialise = needsInitialise(dataDir);
  const { port, note: portNote } = await chooseEmbeddedPort({
    dataDir,
    port: options.port,
    defaultPort: options.defaultPort,
    portVariable: options.portVariable,
  });
  // The parent of dataDir must be traversable by the `postgres` user the server runs as (when we are root).
  fs.mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  if (relocated) fs.chmodSync(path.dirname(dataDir), 0o755);
  logger.info(
    `${initialise ? 'initialising and starting' : 'starting'} embedded PostgreSQL in ${dataDir} on port ${port}` +
      `${portNote === undefined ? '' : ` (${portNote})`}`,
  );

  // detached: its own process group, so a terminal's Ctrl-C reaches only our parent, which stops
  // its services before it stops the database. stdout is unused; stderr is kept for crash reports.
  const child = spawn(process.execPath, [RUNNER_PATH], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    detached: true,
  });
  const logTail: string[] = [];
  const remember = (line: string): void => {
    logTail.push(...line.split('\n').filter((l) => l.trim() !== ''));
    logTail.splice(0, Math.max(0, logTail.length - LOG_TAIL_LINES));
  };
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => remember(chunk));
  child.on('message', (message) => {
    if (isRunnerMessage(message) && message.type === 'log') {
      remember(message.line);
      logger.debug(`postgres: ${message.line.trimEnd()}`);
    }
  });

  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (reason?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (reason === undefined) {
        resolve();
        return;
      }
      child.kill('SIGTERM');
      const hint = /Permission denied/.test(reason) && process.getuid?.() === 0 ? PERMISSION_HINT : '';
      reject(
        new Error(
          `embedded PostgreSQL in ${dataDir} did not start: ${reason.trimEnd()}${hint}\n${logTail.join('\n')}`,
        ),
      );
    };
    const timer = setTimeout(() => settle(`not ready after ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    child.on('message', (message) => {
      if (!isRunnerMessage(message)) return;
      if (message.type === 'ready') settle();
      else if (message.type === 'failed') settle(message.message);
    });
    child.once('exit', (code, signal) => settle(`runner exited (code ${code}, signal ${signal})`));
    child.once('error', (err) => settle(err.message));
    child.send({
      type: 'start',
      config: { dataDir, port, password: EMBEDDED_PASSWORD, initialise, binariesModule },
    });
  });

  release(child);
  try {
    rememberPort(dataDir, port);
  } catch (err) {
    // Only the next start's port depends on it: say so, keep this one running.
    logger.warn(
      `could not remember port ${port} in ${dataDir}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return {
    dataDir,
    port,
    portNote,
    adminUrl: `postgres://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: onceOnly(() => stopRunner(child, logger)),
  };
}

/**
 * Lets the parent exit without calling stop(): when it does, the IPC channel closes and the runner
 * stops the server by itself. stop() takes the references back while it waits.
 */
function release(child: ChildProcess): void {
  child.unref();
  child.channel?.unref();
  // Keep reading stderr (a closed pipe would make the runner's next write fail) but do not let it
  // hold the event loop open.
  if (child.stderr instanceof net.Socket) child.stderr.unref();
}

async function stopRunner(child: ChildProcess, logger: DevstackLogger): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.ref();
  child.channel?.ref();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'stop' });
  else child.kill('SIGTERM');
  const timer = setTimeout(() => {
    logger.warn(`embedded PostgreSQL did not stop within ${STOP_TIMEOUT_MS / 1000} s; killing its runner`);
    child.kill('SIGKILL');
  }, STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function onceOnly(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= fn();
    return running;
  };
}
