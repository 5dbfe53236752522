// jest/integration-setup.ts runs in jest's parent process; this runs in a worker. The URLs it
// exported must be visible here, and must answer.
import { pingPostgres, pingRedis } from '../src/index';

describe('integration global setup', () => {
  it('hands TEST_DATABASE_ADMIN_URL and TEST_REDIS_URL to test workers, both answering', async () => {
    const databaseUrl = process.env.TEST_DATABASE_ADMIN_URL;
    const redisUrl = process.env.TEST_REDIS_URL;
    expect(databaseUrl).toMatch(/^postgres(ql)?:\/\//);
    expect(redisUrl).toMatch(/^rediss?:\/\//);
    expect(await pingPostgres(databaseUrl ?? '')).toBe(true);
    expect(await pingRedis(redisUrl ?? '')).toBe(true);
  });
});
