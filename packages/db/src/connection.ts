// Connection settings derived from one postgres:// URL. We hand `pg` a parsed config rather than
// `connectionString`, because `pg` lets a connection string override every other field: the
// Prisma adapter's shadow database (`{ ...config, database: 'prisma_migrate_shadow_db_…' }`)
// would otherwise silently point back at the real database.
import { Client, type PoolConfig } from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';

/** Database PostgreSQL always has: where CREATE/DROP DATABASE are issued from. */
export const MAINTENANCE_DATABASE = 'postgres';

export function poolConfig(databaseUrl: string, extra: PoolConfig = {}): PoolConfig {
  const protocol = databaseUrl.slice(0, databaseUrl.indexOf(':'));
  if (protocol !== 'postgres' && protocol !== 'postgresql') {
    throw new Error(
      `database URL must start with postgres:// or postgresql:// (got ${protocol || 'nothing'}:)`,
    );
  }
  return { ...parseIntoClientConfig(databaseUrl), ...extra };
}

/** The database a URL points at (PostgreSQL's default: the user name, then `postgres`). */
export function databaseName(databaseUrl: string): string {
  const config = poolConfig(databaseUrl);
  const name = config.database ?? config.user ?? MAINTENANCE_DATABASE;
  if (name === '') throw new Error('database URL names no database');
  return name;
}

/** Settings for the maintenance database of the server a URL points at. */
export function maintenanceConfig(databaseUrl: string): PoolConfig {
  return poolConfig(databaseUrl, { database: MAINTENANCE_DATABASE });
}

/** `"name"` with embedded quotes doubled: safe for identifiers that cannot be bound as parameters. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Runs `fn` with a single short-lived connection (not a pool), closed afterwards. */
export async function withClient<T>(config: PoolConfig, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(config);
  // Without a listener, an 'error' event (server restart, idle kill) would crash the process.
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
