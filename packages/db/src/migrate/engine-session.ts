// One schema-engine session: a WASM engine bound to a PostgreSQL driver adapter, used for one
// command and then torn down (engine freed, every connection it opened closed).
import { randomUUID } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type ErrorRegistry,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import type { PoolConfig } from 'pg';
import { poolConfig, quoteIdentifier, withClient } from '../connection';
import { createPgPool } from '../pool';
import { type SchemaEngine, schemaEngineWasm } from './wasm-engine';

/**
 * The driver-adapter factory the engine connects through. It remembers every connection it opens
 * (the engine disposes of shadow connections only) so a session can close them all.
 *
 * Shadow databases are made here rather than by PrismaPg.connectToShadowDb(), which issues DROP
 * DATABASE while its own pool is still connected (PostgreSQL refuses: "being accessed by other
 * users") and never closes the connection it dropped from, leaking the database and a pool.
 */
class EngineAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';
  private readonly opened: SqlDriverAdapter[] = [];

  constructor(private readonly config: PoolConfig) {}

  async connect(): Promise<SqlDriverAdapter> {
    return this.track(await this.open(this.config));
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const name = quoteIdentifier(`prisma_migrate_shadow_db_${randomUUID()}`);
    await withClient(this.config, (client) => client.query(`CREATE DATABASE ${name}`));
    const adapter = await this.open({ ...this.config, database: name.slice(1, -1) });
    return this.track(adapter, async () => {
      // FORCE (PostgreSQL 13+): a connection the engine left open must not keep the database alive.
      await withClient(this.config, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    });
  }

  async disposeAll(): Promise<void> {
    const results = await Promise.allSettled(this.opened.splice(0).map((adapter) => adapter.dispose()));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private open(config: PoolConfig): Promise<SqlDriverAdapter> {
    // One connection is enough: the engine runs its statements one after another.
    // createPgPool: a server restart mid-migration fails the migration, it does not crash the caller.
    // No connection timeout (0): a long statement must not fail the engine's next one waiting for it.
    const pool = createPgPool({ connectionTimeoutMillis: 0, ...config, max: 1 });
    reportCatalogCharAsText(pool);
    return new PrismaPg(pool, { disposeExternalPool: true }).connect();
  }

  /**
   * Remembers `adapter` and adjusts it for migrations:
   * - dispose() closes the pool, then runs `afterDispose`; it is idempotent because the engine
   *   disposes of shadow connections itself and disposeAll() may come second;
   * - executeScript() sends the whole migration as one simple-protocol query, as Prisma's native
   *   engine does. PrismaPg's own executeScript splits the text on every `;` (even inside comments,
   *   string literals or function bodies) and runs the pieces one by one; one query runs them in a
   *   single implicit transaction, so a failing migration leaves nothing half-applied.
   *   executeRaw with no parameters is a simple-protocol query and maps errors like the adapter does.
   */
  private track(adapter: SqlDriverAdapter, afterDispose?: () => Promise<void>): SqlDriverAdapter {
    adapter.executeScript = async (script) => {
      await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
    };
    const dispose = adapter.dispose.bind(adapter);
    let disposing: Promise<void> | undefined;
    adapter.dispose = () => {
      disposing ??= dispose().then(afterDispose);
      return disposing;
    };
    this.opened.push(adapter);
    return adapter;
  }
}

const CHAR_OID = 18; // PostgreSQL's one-byte "char" (pg_constraint.contype, pg_class.relkind, …)
const TEXT_OID = 25;

/**
 * Makes `pool.query` report "char" result columns as text. The engine's schema describer reads
 * pg_catalog columns of that type (e.g. `pg_constraint.contype`), which PrismaPg 7.10 cannot map
 * ("Column type 'char' could not be deserialized from the database"), so without this every
 * describe, hence every diff, fails. The value itself is already a one-character string (pg has
 * no parser for "char"). Only the promise form `query(config)` is wrapped: the only one PrismaPg
 * uses on a pool (transactions go through pool.connect(); the engine does not open any here).
 */
function reportCatalogCharAsText(pool: pg.Pool): void {
  const query = pool.query.bind(pool);
  const patched = async (config: pg.QueryConfig): Promise<pg.QueryResult | pg.QueryResult[]> => {
    const result: pg.QueryResult | pg.QueryResult[] = await query(config);
    // A multi-statement script (simple protocol) yields one result per statement.
    for (const part of Array.isArray(result) ? result : [result]) {
      for (const field of part.fields ?? []) {
        if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
      }
    }
    return result;
  };
  Object.defineProperty(pool, 'query', { value: patched, configurable: true, writable: true });
}

/** Turns what the engine throws into an Error that says what went wrong. */
function engineError(thrown: unknown, registry: ErrorRegistry): Error {
  if (typeof thrown === 'object' && thrown !== null) {
    // A driver error the adapter captured: the engine carries only its registry id.
    if ('id' in thrown && typeof thrown.id === 'number') {
      const record = registry.consumeError(thrown.id);
      if (record?.error instanceof Error) return record.error;
    }
    // A user-facing engine error: `{ code: 'P3018', message: '…' }`.
    if ('message' in thrown && typeof thrown.message === 'string') {
      const code = 'code' in thrown && typeof thrown.code === 'string' ? `${thrown.code}: ` : '';
      const error = new Error(`schema engine: ${code}${thrown.message}`);
      error.cause = thrown;
      return error;
    }
  }
  return new Error(`schema engine: ${String(thrown)}`);
}

export interface EngineSessionOptions {
  /** schema.prisma files as `[path, content]`, for commands that need the datasource (optional). */
  datamodels?: [string, string][];
}

/**
 * Runs `command` with a fresh engine connected to `databaseUrl`, then frees the engine and closes
 * its connections, whatever happened. Engine errors come back as plain `Error`s.
 */
export async function withSchemaEngine<T>(
  databaseUrl: string,
  command: (engine: SchemaEngine) => Promise<T>,
  options: EngineSessionOptions = {},
): Promise<T> {
  const glue = schemaEngineWasm();
  const factory = new EngineAdapterFactory(poolConfig(databaseUrl));
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  let engine: SchemaEngine | undefined;
  try {
    // The callback receives the engine's tracing lines; they are noise unless debugging the engine.
    engine = await glue.SchemaEngine.new({ datamodels: options.datamodels }, () => {}, bound);
    return await command(engine);
  } catch (thrown) {
    throw engineError(thrown, bound.errorRegistry);
  } finally {
    try {
      engine?.free();
    } catch {
      // After a panic wasm-bindgen refuses to free a value still marked borrowed ("attempted to
      // take ownership of Rust value while it was borrowed"); the original error matters more.
    }
    await factory.disposeAll();
  }
}
