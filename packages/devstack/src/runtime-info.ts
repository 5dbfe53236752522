import fs from 'node:fs';
import path from 'node:path';
import { hasFieldTypes, writeJsonFileAtomic } from './json-file';

/**
 * What `pnpm start` (tools/launcher) is running, so the operator CLI and `pnpm worker` reach the
 * same platform whatever it was started with (issue 23: a `pnpm start` given DATABASE_URL or
 * BUS_PREFIX used to be unreachable for them). Lives in `<data dir>/runtime.json` (DATA_DIR, by
 * default `<root>/.data`, git-ignored; mode 0600: the database URL carries a password).
 */
export interface RuntimeInfo {
  databaseUrl: string;
  redisUrl: string;
  gatewayUrl: string;
  /** The launcher's pid; `isProcessAlive(pid)` tells whether the stack is still up. */
  pid: number;
  /** ISO 8601 timestamp. */
  startedAt: string;
  /** BUS_PREFIX of every service. */
  busPrefix: string;
  /**
   * The file holding the services' BUS_ENCRYPTION_KEY (`busEncryptionKeyPath`), or null when the
   * operator gave the launcher BUS_ENCRYPTION_KEY itself: a client then needs that same variable.
   * Never the key itself.
   */
  busEncryptionKeyFile: string | null;
  /** STORAGE_DIR of the services (the fs driver's directory; S3 settings come from the environment). */
  storageDir: string;
}

/** `runtime.json` in the launcher's data directory (see `resolveDataDir`). */
export function runtimeInfoPath(dataDir: string): string {
  return path.join(dataDir, 'runtime.json');
}

/**
 * `<DATA_DIR>/bus-encryption-key`: BUS_ENCRYPTION_KEY of every service under `pnpm start` (the
 * launcher makes it once; the admin CLI reads it to publish on the stack's bus).
 */
export function busEncryptionKeyPath(dataDir: string): string {
  return path.join(dataDir, 'bus-encryption-key');
}

/**
 * `<DATA_DIR>/vault-keyring.json`: the vault's keyring under `pnpm start` (the launcher makes it once,
 * 0600; `pnpm admin vault add-key` adds versions to it).
 */
export function vaultKeyringPath(dataDir: string): string {
  return path.join(dataDir, 'vault-keyring.json');
}

function isRuntimeInfo(value: unknown): value is RuntimeInfo {
  return hasFieldTypes(value, {
    databaseUrl: 'string',
    redisUrl: 'string',
    gatewayUrl: 'string',
    pid: 'number',
    startedAt: 'string',
    busPrefix: 'string',
    busEncryptionKeyFile: 'string|null',
    storageDir: 'string',
  });
}

/** The recorded runtime info, or null when none was written. A malformed file is an error naming it. */
export function readRuntimeInfo(dataDir: string): RuntimeInfo | null {
  const file = runtimeInfoPath(dataDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT') return null;
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON; delete it (pnpm start writes it again)`);
  }
  if (!isRuntimeInfo(value)) {
    throw new Error(
      `${file} lacks databaseUrl/redisUrl/gatewayUrl/pid/startedAt/busPrefix/busEncryptionKeyFile/storageDir ` +
        '(written by an older launcher?); restart `pnpm start`, which writes it again',
    );
  }
  const { databaseUrl, redisUrl, gatewayUrl, pid, startedAt, busPrefix, busEncryptionKeyFile, storageDir } =
    value;
  return { databaseUrl, redisUrl, gatewayUrl, pid, startedAt, busPrefix, busEncryptionKeyFile, storageDir };
}

/** Writes runtime.json atomically (temp file + rename): a reader never sees half a file. */
export function writeRuntimeInfo(dataDir: string, info: RuntimeInfo): void {
  writeJsonFileAtomic(runtimeInfoPath(dataDir), info);
}

/** Removes runtime.json (the launcher on shutdown); no error when it is already gone. */
export function removeRuntimeInfo(dataDir: string): void {
  fs.rmSync(runtimeInfoPath(dataDir), { force: true });
}

/**
 * The launcher's data directory as an absolute path: DATA_DIR (`dataDir`) resolved against the
 * workspace root, so `pnpm start` and `pnpm admin` agree wherever they are run from.
 */
export function resolveDataDir(rootDir: string, dataDir: string): string {
  return path.resolve(rootDir, dataDir);
}

/**
 * A path as the user types it from the workspace root: relative to `rootDir` when inside it
 * (`.data/dev-key.json`), else absolute.
 */
export function displayPath(rootDir: string, file: string): string {
  const relative = path.relative(rootDir, file);
  if (relative === '') return '.';
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return outside ? path.resolve(file) : relative;
}

/** The nearest directory at or above `fromDir` that holds pnpm-workspace.yaml. */
export function findWorkspaceRoot(fromDir: string): string {
  let dir = path.resolve(fromDir);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no pnpm-workspace.yaml found in ${fromDir} or any parent directory`);
    dir = parent;
  }
}
