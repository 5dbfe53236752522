import { startEmbeddedPostgres } from './embedded-postgres';
import { type DevstackLogger, silentLogger } from './logger';
import { checkPostgres, createDatabase, ensureDatabaseOf, explainFailure } from './postgres-client';
import { redactUrl, withDatabase } from './urls';

/**
 * Default port of the embedded server: 5433, next to a system PostgreSQL on the standard 5432, so
 * both can run on one machine. A Debian second cluster also defaults to 5433: when it is taken, the
 * next free port is used and remembered for that data directory (embedded-port.ts).
 */
export const EMBEDDED_POSTGRES_PORT = 5433;
/** The application's database, created on the embedded server when missing. */
export const DEFAULT_DATABASE = 'capability_service';

// ms an embedded server that just started gets to answer its first connections.
const EMBEDDED_ANSWER_WAIT_MS = 30_000;

export interface EnsurePostgresOptions {
  /** An external server (DATABASE_URL). When set it must answer; nothing is started. */
  databaseUrl?: string;
  /** Data directory of the embedded server (created and initialised on first use, reused after). */
  dataDir: string;
  /**
   * Port of the embedded server on 127.0.0.1, which must then be free. Unset: the port this data
   * directory ran on before, else `defaultPort`, else a free one near it (embedded-port.ts).
   */
  port?: number;
  /** The first port tried when `port` is unset and nothing is remembered (EMBEDDED_POSTGRES_PORT = 5433). */
  defaultPort?: number;
  /** The setting `port` came from, named in errors (e.g. `EMBEDDED_POSTGRES_PORT`). */
  portVariable?: string;
  /** Database the returned URL names on the embedded server (default `capability_service`). */
  database?: string;
  /** Setting the external URL came from, named in error advice (default `DATABASE_URL`). */
  variableName?: string;
  logger?: DevstackLogger;
}

export interface PostgresHandle {
  /** Connection URL to use (the embedded server's includes its development password). */
  url: string;
  /** True when this call started an embedded server. */
  embedded: boolean;
  /** The embedded server's data directory (the one asked for, unless it had to move: postgres-user-access.ts). */
  dataDir?: string;
  /** Why the embedded server is not on its default port (a taken default, a remembered port), for banners. */
  portNote?: string;
  /** Stops the embedded server; a no-op for an external one. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * A PostgreSQL that answers: the external one at `databaseUrl` (checked, retried for ~5 s, the
 * database in its path created when missing), or else an embedded one started in `dataDir`.
 */
export async function ensurePostgres(options: EnsurePostgresOptions): Promise<PostgresHandle> {
  const logger = options.logger ?? silentLogger;
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    return useExternal(options.databaseUrl, options.variableName ?? 'DATABASE_URL', logger);
  }
  const server = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: options.port,
    defaultPort: options.defaultPort ?? EMBEDDED_POSTGRES_PORT,
    portVariable: options.portVariable,
    logger,
  });
  try {
    const database = options.database ?? DEFAULT_DATABASE;
    // A server that has just started can take seconds to accept its first connections on a loaded
    // machine (a connect timed out once in a CI-like run under load 15): wait for it to answer, with
    // retries, before the one-shot CREATE DATABASE.
    await checkPostgres(server.adminUrl, {
      variableName: 'the embedded server URL',
      retryForMs: EMBEDDED_ANSWER_WAIT_MS,
    });
    if (database !== 'postgres') await createDatabase(server.adminUrl, database, { ifNotExists: true });
    const url = withDatabase(server.adminUrl, database);
    await checkPostgres(url, {
      variableName: 'the embedded server URL',
      retryForMs: EMBEDDED_ANSWER_WAIT_MS,
    });
    logger.info(`embedded PostgreSQL ready at ${redactUrl(url)}`);
    return { url, embedded: true, dataDir: server.dataDir, portNote: server.portNote, stop: server.stop };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

async function useExternal(
  url: string,
  variableName: string,
  logger: DevstackLogger,
): Promise<PostgresHandle> {
  const status = await checkPostgres(url, { variableName });
  if (status === 'missing-database') {
    logger.info(`creating the missing database of ${redactUrl(url)}`);
    try {
      await ensureDatabaseOf(url);
    } catch (err) {
      throw new Error(explainFailure(url, err, variableName));
    }
  }
  logger.info(`using PostgreSQL at ${redactUrl(url)}`);
  return { url, embedded: false, stop: async () => undefined };
}
