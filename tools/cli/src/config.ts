import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const DEFAULT_BASE_URL = 'http://localhost:8080';

/** The config file cannot be used (unsafe permissions, not JSON, unknown fields) or no key is set: exit 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface CliConfig {
  readonly baseUrl: string;
  /** Undefined when neither SVC_API_KEY nor the config file has one (search and describe need none). */
  readonly apiKey: string | undefined;
  /** Where the key came from, for messages (never the key itself). */
  readonly keySource: 'SVC_API_KEY' | 'config' | 'none';
  readonly configPath: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** `$XDG_CONFIG_HOME/svc/config.json`, else `~/.config/svc/config.json`. */
export function configPath(env: Env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg?.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'svc', 'config.json');
}

export interface ConfigFs {
  statSync(path: string): { mode: number; uid: number; isFile(): boolean };
  readFileSync(path: string, encoding: 'utf8'): string;
}

interface ConfigFile {
  base_url?: string;
  api_key?: string;
}

const CONFIG_FIELDS = new Set(['base_url', 'api_key']);

/**
 * Reads a config file that only its owner can read (like ssh with a private key): a file with any
 * group or other permission bit, or owned by another user, is refused with the chmod to run.
 * Undefined when there is no file.
 */
export function readConfigFile(
  path: string,
  fs: ConfigFs = { statSync, readFileSync },
  uid: number | undefined = process.getuid?.(),
): ConfigFile | undefined {
  let stat: ReturnType<ConfigFs['statSync']>;
  try {
    stat = fs.statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (!stat.isFile()) throw new ConfigError(`${path} is not a file`);
  if ((stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(3, '0');
    throw new ConfigError(
      `${path} holds an API key and is accessible by others (mode ${mode}); refusing to use it. ` +
        `Run: chmod 600 '${path}'`,
    );
  }
  if (uid !== undefined && stat.uid !== uid) {
    throw new ConfigError(`${path} belongs to another user (uid ${stat.uid}); refusing to use it`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path, 'utf8'));
  } catch {
    throw new ConfigError(`${path} is not valid JSON (expected {"base_url": "…", "api_key": "…"})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${path} must hold a JSON object {"base_url": "…", "api_key": "…"}`);
  }
  const unknown = Object.keys(parsed).filter((key) => !CONFIG_FIELDS.has(key));
  if (unknown.length > 0) {
    throw new ConfigError(`${path}: unknown field ${unknown.join(', ')} (known: base_url, api_key)`);
  }
  const file = parsed as Record<string, unknown>;
  for (const field of CONFIG_FIELDS) {
    if (file[field] !== undefined && (typeof file[field] !== 'string' || file[field] === '')) {
      throw new ConfigError(`${path}: ${field} must be a non-empty string`);
    }
  }
  return file as ConfigFile;
}

/**
 * Base URL: SVC_BASE_URL, else the file's base_url, else http://localhost:8080. API key:
 * SVC_API_KEY, else the file's api_key; never a command-line argument (it would land in shell
 * history and `ps`). The file is only read when the environment does not already give both.
 */
export function loadConfig(env: Env, fs?: ConfigFs, uid?: number): CliConfig {
  const path = configPath(env);
  const envKey = nonEmpty(env.SVC_API_KEY);
  const envBase = nonEmpty(env.SVC_BASE_URL);
  const file = envKey !== undefined && envBase !== undefined ? undefined : readConfigFile(path, fs, uid);
  const baseUrl = checkBaseUrl(
    envBase ?? file?.base_url ?? DEFAULT_BASE_URL,
    envBase ? 'SVC_BASE_URL' : path,
  );
  const apiKey = envKey ?? file?.api_key;
  return {
    baseUrl,
    apiKey,
    keySource: envKey !== undefined ? 'SVC_API_KEY' : apiKey !== undefined ? 'config' : 'none',
    configPath: path,
  };
}

/** The key of a command that needs one; a ConfigError saying where to put it otherwise. */
export function requireApiKey(config: CliConfig): string {
  if (config.apiKey !== undefined) return config.apiKey;
  throw new ConfigError(
    `this command needs an API key: set SVC_API_KEY, or run \`svc login\` (asks for it without echo, or reads stdin, and writes ${config.configPath} with mode 600)`,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A base URL (http or https), without trailing slashes; a ConfigError naming `source` otherwise. */
export function checkBaseUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${source}: base URL ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${source}: base URL must be http or https`);
  }
  return value.replace(/\/+$/, '');
}

/**
 * `svc login`: writes {base_url?, api_key} to the config file with mode 600 (directory 700),
 * through a temporary file renamed into place so no reader ever sees a wider mode or half a file.
 */
export function writeConfigFile(path: string, contents: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600); // a leftover temporary file keeps its mode otherwise
    writeSync(fd, `${JSON.stringify(contents, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}
