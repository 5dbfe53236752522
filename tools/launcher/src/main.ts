// `pnpm start`: the whole platform on one machine with embedded defaults (README's first command).
// Wiring only: PostgreSQL and Redis (found or started) → database migrated → development key →
// every service as its own supervised process (each recorded in <DATA_DIR>/instances/) → ready
// banner and <DATA_DIR>/runtime.json. Ctrl-C or SIGTERM stops the services in order, then what we
// started, and exits 0; a second one forces. What reaches the terminal: launcher-console.ts.
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_DATA_DIR } from '@svc/config';
import { createPrismaClient, ensureDatabaseExists, migrateDatabase } from '@svc/db';
import {
  buildServiceBundles,
  bundledServiceArguments,
  busEncryptionKeyPath,
  DEFAULT_HEALTH_PORTS,
  dataUrlEnv,
  displayPath,
  ensurePostgres,
  ensureRedis,
  findWorkspaceRoot,
  isProcessAlive,
  platformService,
  portEnv,
  servicePorts as portsOf,
  probeBaseUrl,
  readRuntimeInfo,
  redactUrl,
  removeInstanceRecord,
  removeRuntimeInfo,
  resolveDataDir,
  runtimeInfoPath,
  SERVICE_NAMES,
  type ServiceName,
  type ServicePorts,
  STOP_ORDER,
  tcpAnswers,
  writeInstanceRecord,
  writeRuntimeInfo,
} from '@svc/devstack';
import { databaseNote, devAccountLines, devKeyLines, readyLines } from './banner';
import { devAccountPath, ensureDevAccount } from './dev-account';
import { devKeyPath, ensureDevKey } from './dev-key';
import { healthPortVariable, loadLauncherSettings } from './env';
import { type LauncherConsole, PlainConsole } from './launcher-console';
import { artifactLinkSecretPath, ensureArtifactLinkSecret, ensureBusEncryptionKey } from './local-secrets';
import { PrefixedOutput } from './output';
import { waitUntilReady } from './readiness';
import { DEFAULT_RESTART_POLICY } from './restart-policy';
import { type ChildSpec, Supervisor } from './supervisor';
import { TerminalConsole } from './terminal-console';
import { prepareVaultKeyring } from './vault-keyring';
import { chooseWorkerRuntimes, type WorkerRuntimesChoice } from './worker-runtimes';

// Wide enough for the longest service name of the one list.
const NAME_WIDTH = Math.max(...SERVICE_NAMES.map((name) => name.length));
// ms: after a second Ctrl-C, how long PostgreSQL/Redis get to stop before we exit anyway.
const FORCED_STOP_BOUND_MS = 3_000;

const rootDir = findWorkspaceRoot(__dirname);
const settings = loadLauncherSettings(rootDir);
// DATA_DIR, absolute: everything we write lives under it.
const dataDir = settings.dataDir;
const keyFile = devKeyPath(dataDir);
const accountFile = devAccountPath(dataDir);
const postgresDir = path.join(dataDir, 'postgres');
const redisDir = path.join(dataDir, 'redis');
// Object storage of the fs driver (uploads and artifacts), unless STORAGE_DIR says otherwise.
const storageDir = settings.storageDir ?? path.join(dataDir, 'objects');
/** A path as the user types it from the workspace root (relative when inside it, else absolute). */
const shown = (file: string): string => displayPath(rootDir, file);
const gatewayUrl = `http://localhost:${settings.port}`;
const output = new PrefixedOutput(NAME_WIDTH);
// <DATA_DIR>/logs: where the terminal view writes every line (JSON) it does not show.
const logDir = path.join(dataDir, 'logs');
// The services, built at each start (@svc/devstack service-bundles.ts): what the supervisor runs.
const bundleDir = path.join(dataDir, 'bundles');
const view: LauncherConsole =
  settings.output === 'terminal'
    ? new TerminalConsole(output, logDir, shown(logDir))
    : new PlainConsole(output);
const log = view.log;
const startedAt = new Date().toISOString();

const infrastructure: Array<{ name: string; stop: () => Promise<void> }> = [];
let supervisor: Supervisor | undefined;
let wroteRuntimeInfo = false;

// One stop request wins; it carries the exit code (0 on a signal, 1 on a failure).
let stopRequested = false;
let exitCode = 0;
let releaseStop: () => void = () => undefined;
const stopped = new Promise<void>((resolve) => {
  releaseStop = resolve;
});

function requestStop(code: number, reason: string): void {
  if (stopRequested) return;
  stopRequested = true;
  exitCode = code;
  log.info(reason);
  releaseStop();
}

async function force(): Promise<never> {
  log.warn('second signal: killing every service now');
  supervisor?.killAll();
  const stops = Promise.allSettled(infrastructure.map((item) => item.stop()));
  await Promise.race([stops, new Promise((resolve) => setTimeout(resolve, FORCED_STOP_BOUND_MS))]);
  process.exit(1);
}

// ms: a second signal this soon after the first is the same Ctrl-C relayed by a wrapper (pnpm
// forwards the terminal's SIGINT to its child, which already got it from the terminal).
const SIGNAL_ECHO_MS = 1_000;
let firstSignal: { name: NodeJS.Signals; at: number } | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (firstSignal === undefined) {
      firstSignal = { name: signal, at: Date.now() };
      requestStop(0, `${signal}: stopping the services (press Ctrl-C again to force)`);
      return;
    }
    const elapsedMs = Date.now() - firstSignal.at;
    if (elapsedMs > SIGNAL_ECHO_MS) {
      void force();
    } else if (signal !== firstSignal.name) {
      // A relay repeats the signal it got. Another one this soon means a wrapper is converting it,
      // e.g. a second pnpm layer: pnpm answers a second SIGINT (the terminal's, then its parent's
      // relay) with SIGTERM to its child. Harmless here, but worth knowing about.
      log.warn(
        `${signal} ${elapsedMs} ms after ${firstSignal.name}: ignored, part of the same stop ` +
          '(a wrapper process turned the signal into another one; is pnpm layered twice?)',
      );
    }
  });
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A launcher whose runtime.json names a live pid is still running: two would fight over ports. */
function refuseSecondLauncher(): void {
  let info: ReturnType<typeof readRuntimeInfo> = null;
  try {
    info = readRuntimeInfo(dataDir);
  } catch (err) {
    log.warn(`${errorText(err)}; removing it`);
  }
  if (info !== null && info.pid !== process.pid && isProcessAlive(info.pid)) {
    throw new Error(
      `the platform is already running (launcher pid ${info.pid}, ${info.gatewayUrl}); stop it first ` +
        `(if that pid is not a launcher, delete ${shown(runtimeInfoPath(dataDir))})`,
    );
  }
  removeRuntimeInfo(dataDir);
}

/** Fails fast, naming the variable to change, rather than letting a service crash-loop on EADDRINUSE. */
async function checkPortsFree(): Promise<void> {
  const taken: string[] = [];
  if (await tcpAnswers('127.0.0.1', settings.port)) taken.push(`${settings.port} (PORT, gateway)`);
  if (await tcpAnswers('127.0.0.1', settings.uploadsDataPort)) {
    taken.push(`${settings.uploadsDataPort} (UPLOADS_DATA_PORT, uploads)`);
  }
  if (await tcpAnswers('127.0.0.1', settings.dashboardDataPort)) {
    taken.push(`${settings.dashboardDataPort} (DASHBOARD_DATA_PORT, dashboard)`);
  }
  for (const name of SERVICE_NAMES) {
    const port = settings.healthPorts[name];
    if (await tcpAnswers('127.0.0.1', port)) {
      taken.push(`${port} (${healthPortVariable(name)}, default ${DEFAULT_HEALTH_PORTS[name]})`);
    }
  }
  if (taken.length > 0) {
    throw new Error(`ports already in use: ${taken.join(', ')}; free them or set those variables`);
  }
}

/** The internal HTTP servers' DATA_PORTs (the uploads service's, the dashboard's), by service. */
function dataPorts(): Partial<Record<ServiceName, number>> {
  return { uploads: settings.uploadsDataPort, dashboard: settings.dashboardDataPort };
}

/** The ports of one service: its HEALTH_PORT, and PORT or DATA_PORT where the service list gives it one. */
function servicePorts(name: ServiceName): ServicePorts {
  const chosen = {
    healthPort: settings.healthPorts[name],
    publicPort: settings.port,
    dataPort: dataPorts()[name] ?? 0,
  };
  return portsOf(name, chosen);
}

function childSpec(
  name: ServiceName,
  databaseUrl: string,
  redisUrl: string,
  worker: WorkerRuntimesChoice,
  artifactLinkSecret: string,
  busEncryptionKey: string,
  vaultKeyringFile: string | undefined,
): ChildSpec {
  const service = platformService(name);
  const env: NodeJS.ProcessEnv = {
    ...settings.passThrough,
    REDIS_URL: redisUrl,
    BUS_PREFIX: settings.busPrefix,
    LOG_LEVEL: settings.logLevel,
    // UPLOADS_URL, DASHBOARD_URL: where the internal HTTP servers listen.
    ...dataUrlEnv(dataPorts()),
  };
  // What the service list says it needs (@svc/devstack platform-services.ts).
  if (service.database) env.DATABASE_URL = databaseUrl;
  if (service.objectStore) env.STORAGE_DIR = storageDir;
  if (name === 'uploads') env.ARTIFACT_LINK_SECRET = artifactLinkSecret;
  // The vault's keys reach the vault only (an operator's VAULT_KEYRING included).
  if (name === 'vault') {
    if (vaultKeyringFile !== undefined) env.VAULT_KEYRING_FILE = vaultKeyringFile;
  } else {
    delete env.VAULT_KEYRING;
    delete env.VAULT_KEYRING_FILE;
  }
  // Every process on the bus seals and opens with the same key.
  env.BUS_ENCRYPTION_KEY = busEncryptionKey;
  delete env.PORT; // only the gateway's: set below, never inherited
  Object.assign(env, portEnv(servicePorts(name)));
  if (name === 'worker' && worker.runtimes !== undefined) env.WORKER_RUNTIMES = worker.runtimes;
  if (name === 'worker' && worker.chromiumPath !== undefined) env.CHROMIUM_PATH = worker.chromiumPath;
  // The service's bundle, after the watchdog that ends a service whose launcher died (parent-watch.ts).
  const args = bundledServiceArguments(bundleDir, name, { parentWatch: true });
  return { name, command: process.execPath, args, cwd: rootDir, env };
}

/** Bundles every service into bundleDir; a build error (a syntax error in a service) fails the start. */
async function buildBundles(): Promise<void> {
  const started = Date.now();
  try {
    await buildServiceBundles(rootDir, bundleDir);
  } catch (err) {
    throw new Error(`could not build the services: ${err instanceof Error ? err.message : String(err)}`);
  }
  log.info(`built the services in ${Date.now() - started} ms (${shown(bundleDir)})`);
}

async function startUp(): Promise<void> {
  refuseSecondLauncher();
  await checkPortsFree();
  // Before PostgreSQL and Redis: a bad keyring stops the start with nothing to undo.
  const keyring = prepareVaultKeyring({
    inline: settings.vaultKeyring,
    file: settings.vaultKeyringFile,
    rootDir,
    dataDir,
  });
  for (const warning of keyring.warnings) log.warn(warning);
  if (keyring.created && keyring.file !== undefined) {
    view.notice(
      `made the vault keyring ${shown(keyring.file)} (key version 1, mode 0600): back it up, ` +
        'stored vault values cannot be read without it',
    );
  }

  // Built while PostgreSQL and Redis come up (esbuild works in a process of its own).
  const bundling = buildBundles();
  // A failed build is reported where it is awaited, below; not as an unhandled rejection meanwhile.
  bundling.catch(() => {});
  const postgres = await ensurePostgres({
    databaseUrl: settings.databaseUrl,
    dataDir: postgresDir,
    port: settings.embeddedPostgresPort,
    portVariable: 'EMBEDDED_POSTGRES_PORT',
    logger: log,
  });
  if (postgres.embedded) infrastructure.push({ name: 'embedded PostgreSQL', stop: postgres.stop });
  if (stopRequested) return;
  const redis = await ensureRedis({
    redisUrl: settings.redisUrl,
    dataDir: redisDir,
    logger: log,
  });
  if (redis.spawned) infrastructure.push({ name: 'redis-server', stop: redis.stop });
  if (stopRequested) return;

  await ensureDatabaseExists(postgres.url);
  await migrateDatabase(postgres.url, { log: (message) => log.info(`migrations: ${message}`) });
  const prisma = createPrismaClient(postgres.url);
  try {
    // Held until the banner, so the one-time key and password are the last thing on the screen.
    const devKey = await ensureDevKey(prisma, keyFile);
    view.hold(devKeyLines(devKey, shown(keyFile)));
    const devAccount = await ensureDevAccount(prisma, accountFile, devKey.key.client_id);
    view.hold(devAccountLines(devAccount, shown(accountFile), gatewayUrl));
  } finally {
    await prisma.$disconnect();
  }
  if (stopRequested) return;

  // One worker for every runtime this machine can serve: html-to-pdf needs `browser` (Chromium).
  const runtimes = chooseWorkerRuntimes({
    configured: settings.workerRuntimes,
    chromiumPath: settings.chromiumPath,
  });
  if (runtimes.note?.level === 'warn') log.warn(runtimes.note.text);
  else if (runtimes.note !== undefined) log.info(runtimes.note.text);
  const healthUrls = new Map<string, string>(
    SERVICE_NAMES.map((name) => [name, `http://127.0.0.1:${settings.healthPorts[name]}`]),
  );
  await bundling;
  if (stopRequested) return;
  const linkSecret = settings.artifactLinkSecret ?? ensureArtifactLinkSecret(artifactLinkSecretPath(dataDir));
  const busKey = settings.busEncryptionKey ?? ensureBusEncryptionKey(busEncryptionKeyPath(dataDir));
  supervisor = new Supervisor(
    SERVICE_NAMES.map((name) =>
      childSpec(name, postgres.url, redis.url, runtimes, linkSecret, busKey, keyring.file),
    ),
    {
      line: (name, stream, text) => view.serviceLine(name, stream, text),
      info: (message) => log.info(message),
      warn: (message) => log.warn(message),
      // A crash loop never stops the platform (issue 13): the service is restarted with backoff and
      // shows as not ready in the gateway's /readyz; the other services keep serving.
      error: (message) => log.error(message),
      // Before the first ready banner (runtime.json written) there is no platform to keep up yet, and
      // a service that loops from its first start is misconfigured: fail the start, naming it.
      restartScheduled: (name, _status, verdict) => {
        // Its own lines say why it exits; the terminal view kept them back while starting.
        if (!wroteRuntimeInfo) view.explain([name]);
        if (verdict.enteredLoop && !wroteRuntimeInfo) {
          requestStop(1, `${name} keeps crashing before the platform was ever ready: stopping the start`);
        }
      },
      // Where `pnpm admin instances` finds each process's health server (HEALTH_PORT).
      spawned: (name, pid) => {
        const healthUrl = healthUrls.get(name);
        if (healthUrl === undefined) return;
        const startedBy = 'pnpm start';
        writeInstanceRecord(dataDir, {
          service: name,
          pid,
          host: os.hostname(),
          healthUrl,
          startedBy,
          startedAt: new Date().toISOString(),
        });
      },
      exited: (name, pid) => removeInstanceRecord(dataDir, name, pid),
    },
    { ...DEFAULT_RESTART_POLICY, maxDelayMs: settings.restartMaxDelayMs },
  );
  supervisor.start();
  log.info(`started ${SERVICE_NAMES.join(', ')}; waiting for them to be ready`);

  const targets = SERVICE_NAMES.map((name) => ({
    name,
    url: `${probeBaseUrl(name, servicePorts(name))}/readyz`,
  }));
  const ready = await waitUntilReady(targets, {
    reportEveryMs: settings.slowStartMs,
    cancelled: () => stopRequested,
    report: (pending, waitedMs) => {
      log.warn(`still waiting for ${pending.join(', ')} (${Math.round(waitedMs / 1000)} s)`);
      view.explain(pending);
    },
  });
  if (!ready) return;

  // What `pnpm admin` and `pnpm worker` need to find this platform, whatever it was started with.
  writeRuntimeInfo(dataDir, {
    databaseUrl: postgres.url,
    redisUrl: redis.url,
    gatewayUrl,
    pid: process.pid,
    startedAt,
    busPrefix: settings.busPrefix,
    busEncryptionKeyFile: settings.busEncryptionKey === undefined ? busEncryptionKeyPath(dataDir) : null,
    storageDir,
  });
  wroteRuntimeInfo = true;
  // The commands find this platform through DATA_DIR: name it when it is not the default.
  const withDataDir =
    dataDir === resolveDataDir(rootDir, DEFAULT_DATA_DIR) ? '' : `DATA_DIR=${shown(dataDir)} `;
  const notes = [
    databaseNote(postgres, shown(postgres.dataDir ?? postgresDir)),
    `Redis:    ${redactUrl(redis.url)}${redis.spawned ? ` (started here, data in ${shown(redisDir)})` : ''}`,
    ...(settings.busPrefix === 'svc' ? [] : [`Bus:      BUS_PREFIX=${settings.busPrefix}`]),
    `Workers:  ${withDataDir}pnpm worker adds one; ${withDataDir}pnpm admin instances lists every process with its health address`,
    ...(settings.output === 'terminal'
      ? [`Logs:     ${shown(logDir)}/<service>.log (JSON lines); only warnings and errors are shown here`]
      : []),
  ];
  view.ready(readyLines({ gatewayUrl, keyFile: shown(keyFile), accountFile: shown(accountFile), notes }));
}

async function shutDown(): Promise<void> {
  if (supervisor !== undefined) await supervisor.stop(STOP_ORDER, settings.stopTimeoutMs);
  if (wroteRuntimeInfo) removeRuntimeInfo(dataDir);
  for (const item of [...infrastructure].reverse()) {
    try {
      await item.stop();
      log.info(`${item.name} stopped`);
    } catch (err) {
      log.error(`${item.name} did not stop cleanly: ${errorText(err)}`);
      exitCode = 1;
    }
  }
}

async function main(): Promise<number> {
  try {
    await startUp();
  } catch (err) {
    view.explain();
    log.error(errorText(err));
    requestStop(1, 'start-up failed: stopping what was started');
  }
  await stopped;
  // A start that ends before its banner: what the services said, and the one-time secrets.
  if (!wroteRuntimeInfo) {
    if (exitCode !== 0) view.explain();
    view.flushHeld();
  }
  await shutDown();
  log.info(exitCode === 0 ? 'all stopped' : `stopped with errors (exit ${exitCode})`);
  view.close();
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log.error(`launcher failed: ${errorText(err)}`);
    process.exit(1);
  },
);
