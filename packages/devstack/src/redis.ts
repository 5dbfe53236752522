import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { type DevstackLogger, silentLogger } from './logger';
import { sleep, tcpAnswers } from './net';
import { isLoopbackHost, redactUrl } from './urls';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** A fresh redis-server answers in ~50 ms; replaying a large AOF can take longer. */
const READY_TIMEOUT_MS = 15_000;
/** SIGTERM makes Redis fsync the AOF and exit; give it this long before SIGKILL. */
const STOP_TIMEOUT_MS = 5_000;

export interface EnsureRedisOptions {
  /** Default `redis://127.0.0.1:6379`. */
  redisUrl?: string;
  /** Working directory (AOF) of a spawned redis-server. */
  dataDir: string;
  logger?: DevstackLogger;
}

export interface RedisHandle {
  url: string;
  /** True when this call spawned redis-server. */
  spawned: boolean;
  /** Stops the redis-server this call spawned; a no-op otherwise. Safe to call twice. */
  stop(): Promise<void>;
}

/** One quick attempt: true when the server at `url` answers PING with PONG. */
export async function pingRedis(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    // ioredis 6 arms this timer (default 2000 ms, not unref'd) on disconnect() and clears it only on a
    // later 'close' event, which a socket that already failed never emits: it kept jest alive 2 s.
    disconnectTimeout: 100,
  });
  client.on('error', () => undefined); // reported through the rejected promises below
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    if (client.status !== 'end') client.disconnect();
  }
}

/** Absolute path of an executable on PATH, or undefined. */
export function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * A Redis that answers PING: the one at `redisUrl` if it does; else, for a loopback URL, a
 * `redis-server` spawned as our child on that port (AOF on, no RDB snapshots, data in `dataDir`).
 */
export async function ensureRedis(options: EnsureRedisOptions): Promise<RedisHandle> {
  const url = options.redisUrl ?? DEFAULT_REDIS_URL;
  const logger = options.logger ?? silentLogger;
  const parsed = parseRedisUrl(url);
  if (await pingRedis(url)) {
    logger.info(`using Redis at ${redactUrl(url)}`);
    return { url, spawned: false, stop: async () => undefined };
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  if (await tcpAnswers(host, port)) {
    // Something listens but does not PONG: a Redis still loading its AOF, one that wants a
    // password, or not Redis at all. Give a loading Redis a moment, and never start a second one.
    if (await waitForPong(url, 5000)) return { url, spawned: false, stop: async () => undefined };
    throw new Error(
      `something listens at ${redactUrl(url)} but does not answer PING: check REDIS_URL (password? another service on that port?)`,
    );
  }
  if (!isLoopbackHost(host)) {
    throw new Error(
      `Redis at ${redactUrl(url)} (REDIS_URL) does not answer. Start it, or fix REDIS_URL; a redis-server is started automatically only for a loopback URL.`,
    );
  }
  return spawnRedis(url, port, path.resolve(options.dataDir), logger);
}

function parseRedisUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('REDIS_URL is not a valid URL; expected redis://host:6379');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL must be a redis:// URL, got ${redactUrl(url)}`);
  }
  return parsed;
}

async function waitForPong(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await pingRedis(url, 500)) return true;
    await sleep(100);
  }
  return false;
}

async function spawnRedis(
  url: string,
  port: number,
  dataDir: string,
  logger: DevstackLogger,
): Promise<RedisHandle> {
  const binary = findOnPath('redis-server');
  if (binary === undefined) {
    throw new Error(
      `nothing answers at ${redactUrl(url)} and redis-server is not on PATH. Install Redis ` +
        '(`apt-get install redis-server`, `brew install redis`) or set REDIS_URL to a running Redis.',
    );
  }
  fs.mkdirSync(dataDir, { recursive: true });
  // "-::1": also listen on IPv6 loopback when it exists (a `localhost` URL may resolve to ::1); the
  // dash makes that bind optional. --save "": no RDB snapshots; the AOF is the persistence.
  const args = ['--port', String(port), '--bind', '127.0.0.1', '-::1', '--dir', dataDir];
  args.push('--appendonly', 'yes', '--save', '', '--daemonize', 'no');
  logger.info(`starting redis-server on 127.0.0.1:${port} with data in ${dataDir}`);
  // Its own process group (detached): a terminal Ctrl-C goes to the launcher's group only, so Redis
  // outlives the services it serves while the launcher stops them in order, then stops it.
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => {
    exited = true;
  });
  child.once('error', (err) => {
    output += `\n${err.message}`;
  });

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await pingRedis(url, 500))) {
    if (exited || Date.now() >= deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `redis-server on port ${port} did not start${exited ? '' : ' in time'}:\n${output.trim()}`,
      );
    }
    await sleep(100);
  }
  logger.info(`redis-server ready at ${redactUrl(url)} (pid ${child.pid})`);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exit;
      clearTimeout(timer);
    })();
    return stopping;
  };
  return { url, spawned: true, stop };
}
