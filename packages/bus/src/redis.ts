import { createLogger, type Logger } from '@svc/log';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * What a connection is used for; each role needs different ioredis settings (BullMQ "going to
 * production"):
 * - `worker`: BullMQ Worker/QueueEvents (blocking commands): `maxRetriesPerRequest: null` so a Redis
 *   restart makes them wait, never throw;
 * - `producer`: called from request handlers: `enableOfflineQueue: false` so a Redis outage fails
 *   the command at once and the gateway can answer 503 instead of hanging;
 * - `subscriber`: pub/sub; commands wait for the connection and channels are re-subscribed on reconnect.
 */
export type RedisRole = 'worker' | 'producer' | 'subscriber';

export interface CreateRedisOptions {
  role: RedisRole;
  /** Shown in `CLIENT LIST` (connectionName) and in logs. */
  name: string;
  /** Where connection errors are logged; a `bus` logger when omitted. */
  logger?: Logger;
}

/** ms: at most one connection-error line per client per window (a down Redis errors on every retry). */
const ERROR_LOG_WINDOW_MS = 10_000;
/** ms: the longest wait between two reconnection attempts (before jitter). */
export const RECONNECT_MAX_DELAY_MS = 1_000;
/** ms: random spread added to each wait, so a fleet's connections do not all retry in step. */
const RECONNECT_JITTER_MS = 100;

/**
 * ms to wait before reconnection attempt `times` (1-based): 100, 200, … capped at
 * RECONNECT_MAX_DELAY_MS, plus jitter. ioredis 6's default ladder doubles up to 5 s, so a client
 * could still be waiting 5 s after Redis came back, and every request it carries answers 503
 * meanwhile (issue 15 item 7). A refused connect costs next to nothing, so retrying once a second
 * for the length of an outage is cheap; never gives up (null would end the client for good).
 */
export function reconnectDelayMs(times: number, random: () => number = Math.random): number {
  const base = Math.min(Math.max(1, times) * 100, RECONNECT_MAX_DELAY_MS);
  return base + Math.floor(random() * RECONNECT_JITTER_MS);
}

function roleOptions(role: RedisRole): RedisOptions {
  switch (role) {
    case 'worker':
      return { maxRetriesPerRequest: null };
    case 'producer':
      // One retry at most for a command caught by a dropped connection; new commands fail
      // immediately while disconnected (no offline queue).
      return { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 };
    case 'subscriber':
      return { maxRetriesPerRequest: null, autoResubscribe: true };
  }
}

/** The URL without its credentials, safe to log (`redis://:***@host:6379/0`). */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    if (parsed.username) parsed.username = '***';
    return parsed.toString();
  } catch {
    return '[unparseable redis url]';
  }
}

/**
 * The only place an ioredis client is made (BullMQ duplicates worker connections internally from
 * one of these). Always has an `error` listener: without one, ioredis would crash the process on the
 * first connection error; with a plain one, a down Redis would flood the log once per retry.
 */
export function createRedis(url: string, options: CreateRedisOptions): Redis {
  const logger = options.logger ?? createLogger({ service: 'bus' });
  const client = new Redis(url, {
    ...roleOptions(options.role),
    connectionName: options.name,
    // BullMQ copies these options into the connections it duplicates from this client.
    retryStrategy: (times: number) => reconnectDelayMs(times),
    // ms: after disconnect(), how long ioredis waits for the socket to close before destroying it.
    // Its timer (default 2_000) also runs for a socket that already failed (Redis down) and then
    // keeps the process alive that long after shutdown.
    disconnectTimeout: 500,
  });
  const context = { redis: redactRedisUrl(url), connection: options.name, role: options.role };
  const limiter = createErrorLogLimiter();

  client.on('error', (err: Error) => {
    const verdict = limiter.record();
    if (verdict.log)
      logger.warn({ ...context, err: err.message, suppressed: verdict.suppressed }, 'redis error');
  });
  client.on('ready', () => {
    if (limiter.reset() > 0) logger.info(context, 'redis connection restored');
  });
  return client;
}

/** Rate limit for error logs: log the first error, then one line per window with a count. */
export function createErrorLogLimiter(windowMs = ERROR_LOG_WINDOW_MS, now: () => number = Date.now) {
  let lastLoggedAt = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  let total = 0;
  return {
    record(): { log: boolean; suppressed: number } {
      total += 1;
      const at = now();
      if (at - lastLoggedAt < windowMs) {
        suppressed += 1;
        return { log: false, suppressed };
      }
      const count = suppressed;
      lastLoggedAt = at;
      suppressed = 0;
      return { log: true, suppressed: count };
    },
    /** Forget the outage; returns how many errors it counted. */
    reset(): number {
      const count = total;
      total = 0;
      suppressed = 0;
      lastLoggedAt = Number.NEGATIVE_INFINITY;
      return count;
    },
  };
}
