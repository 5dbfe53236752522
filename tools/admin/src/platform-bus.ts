import fs from 'node:fs';
import { busEncryptionEnv, dataDirEnv, type EnvSource, loadEnv, redisEnv, urlVar } from '@svc/config';
import { redactUrl } from '@svc/devstack';
import { z } from 'zod';
import { findLocalStack, type LocalStack } from './database-url';

// Which bus (Redis, BUS_PREFIX, BUS_ENCRYPTION_KEY) the CLI uses to reach the running platform:
// the vault commands call the vault on it, revoke-key publishes apikey.revoked on it, and
// `instances` reads who reports on it. Issue 23: with DATABASE_URL exported (as for its `pnpm
// start`) the CLI used to give up on the local stack, and a BUS_PREFIX given to `pnpm start` only
// was not known here, so a call waited 10 s for a timeout. Now the launcher records its bus in
// runtime.json, and whatever the CLI cannot find is named as the variable to set.

/** The services' default BUS_PREFIX (@svc/config redisEnv). */
const DEFAULT_PREFIX = 'svc';

/** Where the platform's bus is, without its key (enough to read presence). */
export interface BusLocation {
  redisUrl: string;
  prefix: string;
  /** Where these came from, for messages (never a secret). */
  origin: string;
  /** The running `pnpm start` they came from, if they did. */
  stack: LocalStack | undefined;
}

export interface BusSettings {
  redisUrl: string;
  prefix: string;
  encryptionKeys: readonly Uint8Array[];
  /** As BusLocation's. */
  origin: string;
}

/** The CLI cannot tell which bus to use; the message says which variable to set. */
export class PlatformNotFoundError extends Error {
  override readonly name = 'PlatformNotFoundError';
}

// Without defaults: whether the operator set a variable matters here.
const platformEnv = z.object({
  REDIS_URL: urlVar(['redis:', 'rediss:']).optional(),
  BUS_PREFIX: redisEnv.BUS_PREFIX.unwrap().optional(),
  BUS_ENCRYPTION_KEY: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  ...dataDirEnv,
});
const keyEnv = z.object(busEncryptionEnv);

/** Two connection URLs naming the same server and database (parsed: `localhost:5432/` vs `localhost:5432`). */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).toString() === new URL(b).toString();
  } catch {
    return a === b;
  }
}

function describeStack(stack: LocalStack, prefix: string): string {
  const recorded = stack.info.busPrefix;
  const prefixText =
    prefix === recorded
      ? `BUS_PREFIX=${prefix}`
      : `BUS_PREFIX=${prefix} as set here, while its services use ${recorded}: unset BUS_PREFIX`;
  return `the \`pnpm start\` of ${stack.dataDir} (launcher pid ${stack.info.pid}; ${redactUrl(stack.info.redisUrl)}, ${prefixText})`;
}

/**
 * The running `pnpm start` when it is the platform this environment means: DATABASE_URL or
 * REDIS_URL set to something else name another deployment, whose bus is then not guessed.
 */
function localPlatform(read: z.output<typeof platformEnv>, cwd: string): LocalStack | { missing: string } {
  const found = findLocalStack(read.DATA_DIR, cwd);
  if (!('info' in found)) return { missing: `no running \`pnpm start\` (${found.missing})` };
  if (read.DATABASE_URL !== undefined && !sameUrl(read.DATABASE_URL, found.info.databaseUrl)) {
    return {
      missing: `DATABASE_URL names another database than the running \`pnpm start\` of ${found.dataDir}`,
    };
  }
  if (read.REDIS_URL !== undefined && !sameUrl(read.REDIS_URL, found.info.redisUrl)) {
    return { missing: `REDIS_URL names another Redis than the running \`pnpm start\` of ${found.dataDir}` };
  }
  return found;
}

/**
 * Redis and BUS_PREFIX of the platform: the running `pnpm start`'s (each overridden by the
 * variable when set), else REDIS_URL and BUS_PREFIX (default `svc`) from the environment. Throws
 * PlatformNotFoundError naming REDIS_URL when neither says.
 */
export function locateBus(env: EnvSource, cwd: string): BusLocation {
  return locate(loadEnv(platformEnv, env), cwd);
}

function locate(read: z.output<typeof platformEnv>, cwd: string): BusLocation {
  const stack = localPlatform(read, cwd);
  if ('info' in stack) {
    const prefix = read.BUS_PREFIX ?? stack.info.busPrefix;
    return { redisUrl: stack.info.redisUrl, prefix, origin: describeStack(stack, prefix), stack };
  }
  if (read.REDIS_URL === undefined) {
    throw new PlatformNotFoundError(
      `${stack.missing}: start the platform with \`pnpm start\`, or set REDIS_URL, BUS_PREFIX and ` +
        "BUS_ENCRYPTION_KEY to the platform's own",
    );
  }
  const prefix = read.BUS_PREFIX ?? DEFAULT_PREFIX;
  return {
    redisUrl: read.REDIS_URL,
    prefix,
    origin: `${redactUrl(read.REDIS_URL)}, BUS_PREFIX=${prefix}${read.BUS_PREFIX === undefined ? ' (the default)' : ''}`,
    stack: undefined,
  };
}

/** The key text of the located platform: BUS_ENCRYPTION_KEY when set, else the one its launcher made. */
function keyText(location: BusLocation, fromEnv: string | undefined): string {
  if (fromEnv !== undefined) return fromEnv;
  const { stack } = location;
  if (stack === undefined) {
    throw new PlatformNotFoundError(
      `BUS_ENCRYPTION_KEY is not set: set it to the key of the services on ${location.origin}`,
    );
  }
  const file = stack.info.busEncryptionKeyFile;
  if (file === null) {
    throw new PlatformNotFoundError(
      `${location.origin} was given BUS_ENCRYPTION_KEY by its environment: set the same BUS_ENCRYPTION_KEY here`,
    );
  }
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new PlatformNotFoundError(
      `cannot read the bus key ${file} of ${location.origin} (${err instanceof Error ? err.message : String(err)}): ` +
        'set BUS_ENCRYPTION_KEY',
    );
  }
}

/** Everything to open the platform's bus (locateBus, plus its key). Throws PlatformNotFoundError. */
export function resolveBusSettings(env: EnvSource, cwd: string): BusSettings {
  const read = loadEnv(platformEnv, env);
  const location = locate(read, cwd);
  const text = keyText(location, read.BUS_ENCRYPTION_KEY);
  const keys = loadEnv(keyEnv, { BUS_ENCRYPTION_KEY: text }).BUS_ENCRYPTION_KEY;
  return {
    redisUrl: location.redisUrl,
    prefix: location.prefix,
    encryptionKeys: keys,
    origin: location.origin,
  };
}
