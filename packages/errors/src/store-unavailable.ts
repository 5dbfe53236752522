import { isAppError, ServiceUnavailableError } from './app-error';

/**
 * The one place that tells "a backing store is unreachable" from every other failure, so that a
 * request meeting a PostgreSQL or Redis outage answers 503 with `Retry-After` (docs/decisions.md D1)
 * instead of 500. Recognised by shape, not by class: this package depends on neither Prisma, `pg`
 * nor ioredis, and shapes survive duplicate copies of those libraries where `instanceof` does not.
 *
 * A bare socket error (`ECONNREFUSED` without a Prisma, `pg` or ioredis wrapper) is not classified:
 * object storage and outside HTTP providers raise the same codes, and the message would name the
 * wrong store.
 */
export type UnavailableStore = 'PostgreSQL' | 'Redis';

/** Prisma error codes that mean the database could not be reached or answered in time. */
const PRISMA_UNAVAILABLE = new Set([
  'P1001', // can't reach database server
  'P1002', // reached but timed out
  'P1008', // operations timed out
  'P1017', // server closed the connection
  'P2024', // timed out fetching a connection from the pool
]);

/** Driver-adapter error kinds (@prisma/driver-adapter-utils) of a lost or refused connection. */
const ADAPTER_UNAVAILABLE = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/**
 * SQLSTATEs of an unavailable server (PostgreSQL appendix A): class 08 (connection exception),
 * 57P01 admin shutdown (a fast shutdown or pg_terminate_backend), 57P02 crash shutdown, 57P03
 * cannot connect now (starting up or shutting down), 53300 too many connections.
 */
function isUnavailableSqlState(code: string): boolean {
  return (
    /^08[0-9A-Z]{3}$/.test(code) ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '53300'
  );
}

/** Errors `pg` and pg-pool raise as plain `Error`s (no code) when a connection is lost or not had. */
const PG_CONNECTION_MESSAGES = new Set([
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end on the pool',
]);

/** ioredis' own rejections while it has no connection (offline queue off, retries used up, closed). */
const REDIS_CONNECTION_MESSAGES = new Set([
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
]);
/** Redis replies of a server that is up but cannot serve yet (restarting, failing over). */
const REDIS_TRANSIENT_REPLY = /^(LOADING|MASTERDOWN|TRYAGAIN) /;

/** How many wrapped errors are looked at, at most (cause chains are short; cycles are possible). */
const MAX_WRAPPED = 8;

/** Which store `err` (or an error it wraps) says is unreachable; undefined for any other error. */
export function unavailableStore(err: unknown): UnavailableStore | undefined {
  // Prisma wraps the driver's error in `meta.driverAdapterError`, others use `cause`: follow both.
  const pending: unknown[] = [err];
  const seen = new Set<object>();
  while (pending.length > 0 && seen.size < MAX_WRAPPED) {
    const current = pending.shift();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    // An AppError is a decision already made (our own 503 included), not an outage to classify.
    if (isAppError(current)) return undefined;
    const store = storeOf(current);
    if (store !== undefined) return store;
    const meta = field(current, 'meta');
    if (typeof meta === 'object' && meta !== null) pending.push(field(meta, 'driverAdapterError'));
    pending.push(field(current, 'cause'));
  }
  return undefined;
}

function storeOf(value: object): UnavailableStore | undefined {
  const code = stringField(value, 'code') ?? stringField(value, 'errorCode');
  const message = stringField(value, 'message') ?? '';
  const name = stringField(value, 'name');
  if (code !== undefined && PRISMA_UNAVAILABLE.has(code)) return 'PostgreSQL';
  // P2028 is every interactive-transaction API error; only "could not start in time" is an outage
  // (no connection within maxWait), the others are misuse of a closed transaction.
  if (code === 'P2028' && message.includes('Unable to start a transaction in the given time'))
    return 'PostgreSQL';
  const kind = stringField(value, 'kind');
  if (kind !== undefined && ADAPTER_UNAVAILABLE.has(kind)) return 'PostgreSQL';
  // A `pg` DatabaseError (it has a severity) or a driver-adapter cause (originalCode).
  const sqlState = stringField(value, 'originalCode') ?? (stringField(value, 'severity') ? code : undefined);
  if (sqlState !== undefined && isUnavailableSqlState(sqlState)) return 'PostgreSQL';
  if (PG_CONNECTION_MESSAGES.has(message)) return 'PostgreSQL';
  if (name === 'MaxRetriesPerRequestError' || REDIS_CONNECTION_MESSAGES.has(message)) return 'Redis';
  if (name === 'ReplyError' && REDIS_TRANSIENT_REPLY.test(message)) return 'Redis';
  return undefined;
}

/**
 * A 503 for an error that says a store is unreachable, else undefined. The message names the store
 * (and the service that could not reach it, when given) and nothing else: no host, no SQL, no
 * driver text. It tells an agent that cannot see `Retry-After` to try again.
 */
export function storeUnavailableError(err: unknown, service?: string): ServiceUnavailableError | undefined {
  const store = unavailableStore(err);
  if (store === undefined) return undefined;
  const what =
    service === undefined ? `${store} is unavailable` : `the ${service} service cannot reach ${store}`;
  return new ServiceUnavailableError(`${what}; try again in a few seconds`, { cause: err });
}

function field(value: object, key: string): unknown {
  return key in value ? (value as Record<string, unknown>)[key] : undefined;
}

function stringField(value: object, key: string): string | undefined {
  const found = field(value, key);
  return typeof found === 'string' ? found : undefined;
}
