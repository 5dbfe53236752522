// Creating and dropping whole databases (one per environment, one per integration-test suite).
// Both are issued from the server's maintenance database: PostgreSQL cannot create or drop the
// database a session is connected to.
import { DatabaseError } from 'pg';
import { databaseName, maintenanceConfig, quoteIdentifier, withClient } from './connection';

// SQLSTATEs (PostgreSQL appendix A).
const DUPLICATE_DATABASE = '42P04';
/** Two concurrent CREATE DATABASE of one name: the loser may trip pg_database's unique index. */
const UNIQUE_VIOLATION = '23505';

function sqlState(error: unknown): string | undefined {
  return error instanceof DatabaseError ? error.code : undefined;
}

/**
 * Creates the database `databaseUrl` names unless it exists. Safe under races: a concurrent
 * creator winning between our check and our CREATE is success, not an error.
 * Returns true when this call created it.
 */
export async function ensureDatabaseExists(databaseUrl: string): Promise<boolean> {
  const name = databaseName(databaseUrl);
  return withClient(maintenanceConfig(databaseUrl), async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
      return true;
    } catch (error) {
      const state = sqlState(error);
      if (state === DUPLICATE_DATABASE || state === UNIQUE_VIOLATION) return false;
      throw error;
    }
  });
}

/**
 * Drops the database `databaseUrl` names, if it exists, disconnecting its sessions first
 * (`WITH (FORCE)`, PostgreSQL 13+): meant for tests, whose pools may still hold connections.
 */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  await withClient(maintenanceConfig(databaseUrl), async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
  });
}
