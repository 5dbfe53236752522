// The Prisma client every service uses, on the `pg` driver through @prisma/adapter-pg (Prisma 7 is
// Rust-free: queries are planned by a WASM compiler inside the client, executed by `pg`).
import { PrismaPg } from '@prisma/adapter-pg';
import { poolConfig } from './connection';
import { PrismaClient } from './generated/prisma/client';
import { createPgPool, type StatementListener } from './pool';

/** Where lost connections are reported (a pino logger fits). */
export interface ConnectionErrorLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface PrismaClientOptions {
  /** Pool size (pg default: 10). Each replica holds up to this many PostgreSQL connections. */
  max?: number;
  /** `application_name` of the connections (pg_stat_activity), e.g. the service's name. */
  applicationName?: string;
  /** Told once per connection lost outside a query (server restart, terminated backend). */
  logger?: ConnectionErrorLogger;
  /** Told about every statement sent (pool.ts): tests count statements per operation with it. */
  onStatement?: StatementListener;
}

/**
 * A Prisma client on its own `pg` pool (pool.ts: every connection has an 'error' listener, so a
 * database restart cannot crash the process). Queries on a lost connection reject; callers turn
 * those rejections into 503 (`storeUnavailableError` in @svc/errors). `$disconnect()` ends the pool.
 */
export function createPrismaClient(databaseUrl: string, options: PrismaClientOptions = {}): PrismaClient {
  const config = poolConfig(databaseUrl, options.max === undefined ? {} : { max: options.max });
  const { logger } = options;
  const pool = createPgPool(config, {
    ...(options.applicationName === undefined ? {} : { applicationName: options.applicationName }),
    ...(options.onStatement === undefined ? {} : { onStatement: options.onStatement }),
    ...(logger === undefined
      ? {}
      : {
          // The driver's message and SQLSTATE only: no host, user or query text.
          onConnectionError: (err) =>
            logger.warn({ err: err.message, code: sqlStateOf(err) }, 'postgres connection lost'),
        }),
  });
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
}

function sqlStateOf(err: Error): string | undefined {
  return 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
