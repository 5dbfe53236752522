// The PostgreSQL and Redis that integration tests and benchmarks run against (jest's globalSetup,
// `pnpm bench`). Order of preference, for each: the URL given in the environment (must answer, or we fail loudly),
// then the usual local server, then one we start ourselves under <root>/.data (data reused across runs).
import path from 'node:path';
import { consoleLogger } from './logger';
import { freePort } from './net';
import { ensurePostgres } from './postgres';
import { pingPostgres } from './postgres-client';
import { ensureRedis, pingRedis } from './redis';
import { redactUrl } from './urls';

export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';

const logger = consoleLogger('test-infrastructure');

export interface PrepareOptions {
  /** Workspace root: fallback servers keep their data in <rootDir>/.data/test-{postgres,redis}. */
  rootDir: string;
  /** TEST_DATABASE_ADMIN_URL / TEST_REDIS_URL from the environment, when set. */
  givenDatabaseUrl?: string;
  givenRedisUrl?: string;
  /** Servers tried before starting our own (defaults: the standard local ports). */
  localPostgresUrl?: string;
  localRedisUrl?: string;
}

export interface PreparedStack {
  databaseAdminUrl: string;
  redisUrl: string;
  /** Stop functions of the servers this call started (none for servers it found running). */
  stops: Array<() => Promise<void>>;
}

async function postgresAdminUrl(options: PrepareOptions, stops: PreparedStack['stops']): Promise<string> {
  const dataDir = path.join(options.rootDir, '.data', 'test-postgres');
  if (options.givenDatabaseUrl) {
    const variableName = 'TEST_DATABASE_ADMIN_URL';
    return (await ensurePostgres({ databaseUrl: options.givenDatabaseUrl, dataDir, variableName })).url;
  }
  const local = options.localPostgresUrl ?? LOCAL_POSTGRES_URL;
  if (await pingPostgres(local)) return local;
  logger.info(`no PostgreSQL answers at ${redactUrl(local)}; starting an embedded one`);
  // A free port rather than the launcher's 5433, so tests can run while `pnpm start` is up.
  const handle = await ensurePostgres({ dataDir, port: await freePort(), database: 'postgres', logger });
  stops.push(handle.stop);
  return handle.url;
}

async function redisUrl(options: PrepareOptions, stops: PreparedStack['stops']): Promise<string> {
  if (options.givenRedisUrl) {
    if (!(await pingRedis(options.givenRedisUrl, 3000))) {
      throw new Error(
        'TEST_REDIS_URL is set but nothing answers PING there: start that Redis or unset TEST_REDIS_URL',
      );
    }
    return options.givenRedisUrl;
  }
  const local = options.localRedisUrl ?? LOCAL_REDIS_URL;
  if (await pingRedis(local)) return local;
  logger.info(`no Redis answers at ${redactUrl(local)}; spawning redis-server`);
  const handle = await ensureRedis({
    redisUrl: `redis://127.0.0.1:${await freePort()}`,
    dataDir: path.join(options.rootDir, '.data', 'test-redis'),
    logger,
  });
  stops.push(handle.stop);
  return handle.url;
}

/** Finds or starts both servers. On failure it stops what it started before throwing. */
export async function prepareIntegrationStack(options: PrepareOptions): Promise<PreparedStack> {
  const stops: PreparedStack['stops'] = [];
  const results = await Promise.allSettled([postgresAdminUrl(options, stops), redisUrl(options, stops)]);
  const [postgres, redis] = results;
  if (postgres.status === 'rejected' || redis.status === 'rejected') {
    // jest skips globalTeardown when globalSetup throws: nothing else would stop these.
    await Promise.allSettled(stops.map((stop) => stop()));
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    throw errors.length === 1 ? errors[0] : new AggregateError(errors, 'integration setup failed');
  }
  return { databaseAdminUrl: postgres.value, redisUrl: redis.value, stops };
}
