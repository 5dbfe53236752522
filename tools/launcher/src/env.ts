import {
  baseEnv,
  busEncryptionEnv,
  databaseEnv,
  dataDirEnv,
  durationMs,
  type EnvSource,
  intInRange,
  loadEnvOrExit,
  pathVar,
  port,
  redisEnv,
  vaultKeyringEnv,
} from '@svc/config';
import {
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
  // Everything we write (embedded PostgreSQL and Redis data, dev-key.json, runtime.json); default
  // .data, relative to the workspace root.
  ...dataDirEnv,
  REDIS_URL: redisEnv.REDIS_URL,
  BUS_PREFIX: redisEnv.BUS_PREFIX,
  PORT: port(DEFAULT_GATEWAY_PORT),
  ...healthPortOverrides,
  // The uploads service's internal HTTP port (its DATA_PORT; the gateway's UPLOADS_URL points at it).
  UPLOADS_DATA_PORT: port(DEFAULT_UPLOADS_DATA_PORT),
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
  // Read to choose the worker's runtimes (worker-runtimes.ts); both still reach the worker untouched.
  // The default is html-to-pdf's own (packages/capabilities/src/html-to-pdf/env.ts): Debian's chromium package.
  WORKER_RUNTIMES: z.string().optional(),
  CHROMIUM_PATH: pathVar('/usr/bin/chromium'),
});

export interface LauncherSettings {
  databaseUrl: string | undefined;
  /** DATA_DIR as an absolute path. */
  dataDir: string;
  redisUrl: string;
  busPrefix: string;
  logLevel: string;
  port: number;
  healthPorts: Record<ServiceName, number>;
  uploadsDataPort: number;
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
  /** WORKER_RUNTIMES when the operator set it. */
  workerRuntimes: string | undefined;
  chromiumPath: string;
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
export function loadLauncherSettings(rootDir: string, source: EnvSource = process.env): LauncherSettings {
  const env = loadEnvOrExit(LauncherEnv, source);
  return {
    databaseUrl: env.DATABASE_URL,
    dataDir: resolveDataDir(rootDir, env.DATA_DIR),
    redisUrl: env.REDIS_URL,
    busPrefix: env.BUS_PREFIX,
    logLevel: env.LOG_LEVEL,
    port: env.PORT,
    healthPorts: healthPortsFrom(env),
    uploadsDataPort: env.UPLOADS_DATA_PORT,
    storageDir: env.STORAGE_DIR,
    artifactLinkSecret: env.ARTIFACT_LINK_SECRET,
    busEncryptionKey: env.BUS_ENCRYPTION_KEY === undefined ? undefined : source.BUS_ENCRYPTION_KEY,
    vaultKeyring: blankToUndefined(env.VAULT_KEYRING),
    vaultKeyringFile: env.VAULT_KEYRING_FILE,
    stopTimeoutMs: env.LAUNCHER_STOP_TIMEOUT_MS,
    restartMaxDelayMs: env.LAUNCHER_RESTART_MAX_DELAY_MS,
    workerRuntimes: env.WORKER_RUNTIMES,
    chromiumPath: env.CHROMIUM_PATH,
    passThrough: { ...source },
  };
}
