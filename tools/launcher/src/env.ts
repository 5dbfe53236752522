import {
  baseEnv,
  busEncryptionEnv,
  databaseEnv,
  dataDirEnv,
  durationMs,
  type EnvSource,
  intInRange,
  loadEnvOrExit,
  oneOf,
  pathVar,
  port,
  redisEnv,
  vaultKeyringEnv,
} from '@svc/config';
import {
  DEFAULT_DASHBOARD_DATA_PORT,
  DEFAULT_GATEWAY_PORT,
  DEFAULT_HEALTH_PORTS,
  DEFAULT_UPLOADS_DATA_PORT,
  resolveDataDir,
  SERVICE_NAMES,
  type ServiceName,
} from '@svc/devstack';
import { z } from 'zod';

/** `<NAME>_HEALTH_PORT`: moves one service's health server off its default port (e.g. 8081 is taken). */
export function healthPortVariable(name: ServiceName): string {
  return `${name.toUpperCase()}_HEALTH_PORT`;
}

/**
 * How the launcher writes to its terminal (issue 23): `terminal` keeps start-up quiet, prints the
 * banner last, then only warnings and errors, readable (every JSON log line goes to
 * <DATA_DIR>/logs/<service>.log); `plain` hands every line on as it comes (JSON, prefixed with the
 * process name), for files, pipes and production. `auto`: `terminal` when stdout is a terminal and
 * NODE_ENV is not production.
 */
export const OUTPUT_MODES = ['auto', 'terminal', 'plain'] as const;
export type OutputMode = Exclude<(typeof OUTPUT_MODES)[number], 'auto'>;

const outputEnv = {
  LAUNCHER_OUTPUT: oneOf(OUTPUT_MODES).default('auto'),
};

/** `auto` decided: a terminal in development gets the terminal view. */
function outputMode(
  setting: (typeof OUTPUT_MODES)[number],
  nodeEnv: string,
  stdoutIsTty: boolean,
): OutputMode {
  if (setting !== 'auto') return setting;
  return stdoutIsTty && nodeEnv !== 'production' ? 'terminal' : 'plain';
}

const healthPortOverrides = Object.fromEntries(
  SERVICE_NAMES.map((name) => [healthPortVariable(name), port(DEFAULT_HEALTH_PORTS[name])]),
);

/**
 * The launcher's own settings. Everything else in the environment (CRT_SH_URL, CERTSPOTTER_URL,
 * CERTSPOTTER_TOKEN, RPC_TIMEOUT_MS, …) is passed through to the services untouched; WORKER_RUNTIMES
 * is set for the worker when the operator left it unset (worker-runtimes.ts).
 */
export const LauncherEnv = z.object({
  ...baseEnv,
  // Unset: an embedded PostgreSQL with its data in <DATA_DIR>/postgres.
  DATABASE_URL: databaseEnv.DATABASE_URL.optional(),
  // The embedded PostgreSQL's port, which must then be free. Unset: the port its data directory ran
  // on before, else 5433, else the next free one (remembered for that data directory).
  EMBEDDED_POSTGRES_PORT: port().optional(),
  ...outputEnv,
  // Everything we write (embedded PostgreSQL and Redis data, dev-key.json, runtime.json); default
  // .data, relative to the workspace root.
  ...dataDirEnv,
  REDIS_URL: redisEnv.REDIS_URL,
  BUS_PREFIX: redisEnv.BUS_PREFIX,
  PORT: port(DEFAULT_GATEWAY_PORT),
  ...healthPortOverrides,
  // The uploads service's internal HTTP port (its DATA_PORT; the gateway's UPLOADS_URL points at it).
  UPLOADS_DATA_PORT: port(DEFAULT_UPLOADS_DATA_PORT),
  // The dashboard's pages (its DATA_PORT; the gateway's DASHBOARD_URL points at it).
  DASHBOARD_DATA_PORT: port(DEFAULT_DASHBOARD_DATA_PORT),
  // Object storage: unset STORAGE_DIR with the fs driver means <DATA_DIR>/objects (passed through otherwise).
  STORAGE_DIR: z.string().min(1).optional(),
  // Unset: <DATA_DIR>/artifact-link-secret, made on first start (local-secrets.ts).
  ARTIFACT_LINK_SECRET: z.string().min(32).optional(),
  // Unset: <DATA_DIR>/bus-encryption-key, made on first start (local-secrets.ts). Checked here as
  // the services check it, so a bad one stops the start before any service crash-loops on it.
  BUS_ENCRYPTION_KEY: busEncryptionEnv.BUS_ENCRYPTION_KEY.optional(),
  // Both unset: <DATA_DIR>/vault-keyring.json, made on first start (vault-keyring.ts); the vault
  // alone gets them.
  ...vaultKeyringEnv,
  // ms: how long a service has to exit after SIGTERM before it is SIGKILLed.
  LAUNCHER_STOP_TIMEOUT_MS: durationMs(10_000),
  // ms: the longest wait before restarting a crashed service (the delay doubles per crash in a row
  // from 0.5 s up to this; restart-policy.ts). At least 1 s: a crash loop must not spin.
  LAUNCHER_RESTART_MAX_DELAY_MS: intInRange(1_000, 2_147_483_647, 30_000),
  // ms a start may take before the launcher says which services it still waits for, and shows on a
  // terminal what they said (readiness.ts); again after each such interval.
  LAUNCHER_SLOW_START_MS: intInRange(1_000, 2_147_483_647, 15_000),
  // Read to choose the worker's runtimes (worker-runtimes.ts); both still reach the worker untouched.
  // Unset CHROMIUM_PATH: the launcher looks for an installed Chromium (CHROMIUM_CANDIDATES).
  WORKER_RUNTIMES: z.string().optional(),
  CHROMIUM_PATH: pathVar().optional(),
});

export interface LauncherSettings {
  databaseUrl: string | undefined;
  /** EMBEDDED_POSTGRES_PORT when the operator set it. */
  embeddedPostgresPort: number | undefined;
  /** LAUNCHER_OUTPUT decided for this process's stdout. */
  output: OutputMode;
  /** DATA_DIR as an absolute path. */
  dataDir: string;
  redisUrl: string;
  busPrefix: string;
  logLevel: string;
  port: number;
  healthPorts: Record<ServiceName, number>;
  uploadsDataPort: number;
  dashboardDataPort: number;
  /** STORAGE_DIR when the operator set it. */
  storageDir: string | undefined;
  /** ARTIFACT_LINK_SECRET when the operator set it. */
  artifactLinkSecret: string | undefined;
  /** BUS_ENCRYPTION_KEY as the operator set it (checked), passed to every service as is. */
  busEncryptionKey: string | undefined;
  /** VAULT_KEYRING (inline JSON) when the operator set it; checked by vault-keyring.ts. */
  vaultKeyring: string | undefined;
  /** VAULT_KEYRING_FILE when the operator set it (relative: to the workspace root). */
  vaultKeyringFile: string | undefined;
  stopTimeoutMs: number;
  /** ms: the cap on the delay before a crashed service is restarted. */
  restartMaxDelayMs: number;
  /** LAUNCHER_SLOW_START_MS: when a slow start is reported (readiness.ts). */
  slowStartMs: number;
  /** WORKER_RUNTIMES when the operator set it. */
  workerRuntimes: string | undefined;
  /** CHROMIUM_PATH when the operator set it. */
  chromiumPath: string | undefined;
  /** The environment the services inherit (our variables are set on top of it per service). */
  passThrough: NodeJS.ProcessEnv;
}

function healthPortsFrom(parsed: Record<string, unknown>): Record<ServiceName, number> {
  const ports = { ...DEFAULT_HEALTH_PORTS };
  for (const name of SERVICE_NAMES) {
    const value = parsed[healthPortVariable(name)];
    if (typeof value === 'number') ports[name] = value;
  }
  return ports;
}

/** An empty variable (`VAULT_KEYRING=` in a shell) counts as unset. */
function blankToUndefined(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

/**
 * The only read of process.env in the launcher; a bad variable is printed by name and exits 1.
 * `rootDir` (the workspace root) is what a relative DATA_DIR is relative to.
 */
export function loadLauncherSettings(
  rootDir: string,
  source: EnvSource = process.env,
  stdoutIsTty: boolean = process.stdout.isTTY === true,
): LauncherSettings {
  const env = loadEnvOrExit(LauncherEnv, source);
  return {
    databaseUrl: env.DATABASE_URL,
    embeddedPostgresPort: env.EMBEDDED_POSTGRES_PORT,
    output: outputMode(env.LAUNCHER_OUTPUT, env.NODE_ENV, stdoutIsTty),
    dataDir: resolveDataDir(rootDir, env.DATA_DIR),
    redisUrl: env.REDIS_URL,
    busPrefix: env.BUS_PREFIX,
    logLevel: env.LOG_LEVEL,
    port: env.PORT,
    healthPorts: healthPortsFrom(env),
    uploadsDataPort: env.UPLOADS_DATA_PORT,
    dashboardDataPort: env.DASHBOARD_DATA_PORT,
    storageDir: env.STORAGE_DIR,
    artifactLinkSecret: env.ARTIFACT_LINK_SECRET,
    busEncryptionKey: env.BUS_ENCRYPTION_KEY === undefined ? undefined : source.BUS_ENCRYPTION_KEY,
    vaultKeyring: blankToUndefined(env.VAULT_KEYRING),
    vaultKeyringFile: env.VAULT_KEYRING_FILE,
    stopTimeoutMs: env.LAUNCHER_STOP_TIMEOUT_MS,
    restartMaxDelayMs: env.LAUNCHER_RESTART_MAX_DELAY_MS,
    slowStartMs: env.LAUNCHER_SLOW_START_MS,
    workerRuntimes: env.WORKER_RUNTIMES,
    chromiumPath: env.CHROMIUM_PATH,
    passThrough: { ...source },
  };
}

/**
 * `pnpm worker` (worker-command.ts): one more worker next to a running `pnpm start`, which it finds
 * through DATA_DIR. Everything else in the environment (WORKER_RUNTIMES, WORKER_CONCURRENCY, the
 * capabilities' variables, S3_*) reaches the worker untouched.
 */
export const WorkerCommandEnv = z.object({
  ...baseEnv,
  ...dataDirEnv,
  ...outputEnv,
  // Unset: a free port, chosen and printed by `pnpm worker` (0 is refused: the address must be known).
  HEALTH_PORT: port().optional(),
  // Needed only when the `pnpm start` it joins was given BUS_ENCRYPTION_KEY (no key file to read).
  BUS_ENCRYPTION_KEY: busEncryptionEnv.BUS_ENCRYPTION_KEY.optional(),
});

export interface WorkerCommandSettings {
  dataDir: string;
  output: OutputMode;
  healthPort: number | undefined;
  /** BUS_ENCRYPTION_KEY as the operator set it (checked). */
  busEncryptionKey: string | undefined;
  /** The environment the worker inherits (the platform's bus and storage are set on top). */
  passThrough: NodeJS.ProcessEnv;
}

/** The only read of process.env by `pnpm worker`; a bad variable is printed by name and exits 1. */
export function loadWorkerCommandSettings(
  rootDir: string,
  source: EnvSource = process.env,
  stdoutIsTty: boolean = process.stdout.isTTY === true,
): WorkerCommandSettings {
  const env = loadEnvOrExit(WorkerCommandEnv, source);
  return {
    dataDir: resolveDataDir(rootDir, env.DATA_DIR),
    output: outputMode(env.LAUNCHER_OUTPUT, env.NODE_ENV, stdoutIsTty),
    healthPort: env.HEALTH_PORT,
    busEncryptionKey: env.BUS_ENCRYPTION_KEY === undefined ? undefined : source.BUS_ENCRYPTION_KEY,
    passThrough: { ...source },
  };
}
