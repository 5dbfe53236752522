// The `pg` pool under every Prisma client and migration session, made so that a lost connection can
// never end the process.
//
// A `pg.Client` emits 'error' when its connection dies outside a query (a fast shutdown of
// PostgreSQL, pg_terminate_backend, a reset socket), and an 'error' event without a listener throws.
// pg-pool listens while a client is idle, pool.query() while it runs a query, and @prisma/adapter-pg
// (options `onPoolError`, `onConnectionError`) on the pool and inside a transaction. One gap is left:
// pg-pool removes its idle listener when it hands a client to a waiting `pool.connect()`, and the
// adapter attaches its own only when that promise resumes. When the end of one query (ReadyForQuery,
// which hands the client over) and the server's `57P01 terminating connection` arrive in the same
// socket read, the error is emitted in between, unheard: the orchestrator crashed this way when
// PostgreSQL restarted under load (issue 13, finding 10). Hence a listener on every connection for
// its whole life, attached when the pool creates it, before anyone can be handed it.
import pg, { type PoolConfig } from 'pg';

/** Told about connections lost outside a query (the query itself, if any, rejects on its own). */
export type ConnectionErrorListener = (err: Error) => void;

/** ms: how long a query may wait for a connection (new or from a busy pool) before it fails. */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 5_000;

export interface PgPoolOptions {
  /**
   * `application_name` of every connection (PostgreSQL's pg_stat_activity): names the process that
   * holds it, for operators and for tests that terminate one service's connections.
   */
  applicationName?: string;
  /** Called for every lost connection; the pool replaces it on its next use. */
  onConnectionError?: ConnectionErrorListener;
  /**
   * Told about every statement sent, with the connection it went on (a number per connection of
   * this pool): what tests count statements and transactions per operation with (issue 25).
   */
  onStatement?: StatementListener;
}

/** One statement as sent: its SQL text and the pool connection (1, 2, …) it went on. */
export type StatementListener = (statement: { sql: string; connection: number }) => void;

/**
 * A pool whose connections always have an 'error' listener, and which gives up on a connection
 * after `connectionTimeoutMillis` (default 5 s) instead of waiting forever for a server that does
 * not answer: the query then fails with pg-pool's timeout, which callers answer with 503.
 */
export function createPgPool(config: PoolConfig, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionTimeoutMillis: DEFAULT_CONNECTION_TIMEOUT_MS,
    ...config,
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
  });
  const report: ConnectionErrorListener = options.onConnectionError ?? (() => {});
  // 'connect' fires once per new connection, before pg-pool hands it to anyone.
  const onStatement = options.onStatement;
  let connections = 0;
  pool.on('connect', (client) => {
    client.on('error', report);
    connections += 1;
    if (onStatement !== undefined) observeStatements(client, connections, onStatement);
  });
  // Idle connections' errors reach the pool (pg-pool re-emits them): the same listener hears them
  // already on the connection, so this one only keeps the pool's own 'error' from throwing.
  pool.on('error', () => {});
  return pool;
}

/** Calls `listener` with each statement's text before `client` sends it (pg's client.query). */
function observeStatements(client: pg.PoolClient, connection: number, listener: StatementListener): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const observed = (...args: unknown[]) => {
    const [first] = args;
    const sql =
      typeof first === 'string'
        ? first
        : typeof first === 'object' && first !== null && 'text' in first && typeof first.text === 'string'
          ? first.text
          : '';
    listener({ sql, connection });
    return query(...args);
  };
  client.query = observed as typeof client.query;
}
