// jest/integration-setup.ts on a machine where the usual local servers are down: it must start an
// embedded PostgreSQL and a redis-server of its own, reuse their data on the next run, and its
// stop functions must stop them. (The real setup probes 127.0.0.1:5432/6379; here the "local"
// URLs point at free ports so the machine's own servers can stay up.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, pingPostgres, pingRedis } from '../src/index';
import { prepareIntegrationStack } from '../src/test-infrastructure';

describe('integration setup fallback', () => {
  let rootDir: string;

  beforeAll(() => {
    rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-setup-'));
    fs.chmodSync(rootDir, 0o755); // the embedded server runs as the `postgres` user when we are root
  });
  afterAll(() => fs.rmSync(rootDir, { recursive: true, force: true }));

  const prepare = async () =>
    prepareIntegrationStack({
      rootDir,
      localPostgresUrl: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`,
      localRedisUrl: `redis://127.0.0.1:${await freePort()}`,
    });

  it('starts its own servers under <root>/.data, reuses them on the next run, and stops them', async () => {
    const first = await prepare();
    expect(first.stops).toHaveLength(2);
    expect(first.databaseAdminUrl).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    expect(await pingRedis(first.redisUrl)).toBe(true);
    expect(fs.existsSync(path.join(rootDir, '.data', 'test-postgres', 'PG_VERSION'))).toBe(true);
    expect(fs.readdirSync(path.join(rootDir, '.data', 'test-redis'))).toContain('appendonlydir');

    const client = new Client({ connectionString: first.databaseAdminUrl });
    await client.connect();
    await client.query('CREATE TABLE setup_marker (v int); INSERT INTO setup_marker VALUES (42)');
    await client.end();
    for (const stop of first.stops) await stop();
    expect(await pingPostgres(first.databaseAdminUrl)).toBe(false);
    expect(await pingRedis(first.redisUrl)).toBe(false);

    const second = await prepare();
    try {
      const again = new Client({ connectionString: second.databaseAdminUrl });
      await again.connect();
      expect((await again.query('SELECT v FROM setup_marker')).rows).toEqual([{ v: 42 }]);
      await again.end();
    } finally {
      for (const stop of second.stops) await stop();
    }
  });

  it('uses the given URLs as they are and fails loudly when one does not answer', async () => {
    const given = await prepareIntegrationStack({
      rootDir,
      givenDatabaseUrl: process.env.TEST_DATABASE_ADMIN_URL,
      givenRedisUrl: process.env.TEST_REDIS_URL,
    });
    expect(given).toEqual({
      databaseAdminUrl: process.env.TEST_DATABASE_ADMIN_URL,
      redisUrl: process.env.TEST_REDIS_URL,
      stops: [],
    });
    await expect(
      prepareIntegrationStack({ rootDir, givenRedisUrl: `redis://127.0.0.1:${await freePort()}` }),
    ).rejects.toThrow(/TEST_REDIS_URL is set but nothing answers PING/);
  });
});
