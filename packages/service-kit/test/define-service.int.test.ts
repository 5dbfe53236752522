// defineService's bootstrap without a process: what it creates for the declared needs, the
// readiness checks it derives, and the order of the closables (the reverse is the shutdown order).
// Redis is real (the integration setup provides it); PostgreSQL is a closed port on purpose, which
// Prisma does not touch until a query, so the `postgres` check fails and /readyz names it.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { platformCatalog, ReadinessResponse } from '@svc/contracts';
import { memoryLogger } from '@svc/log';
import { type Closable, closeInReverse, type ServiceDeclaration, startDeclaredService } from '../src/index';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function recorder(order: string[], name: string): Closable {
  return { name, close: async () => void order.push(name) };
}

async function readyz(url: string): Promise<{ status: number; body: ReadinessResponse }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: ReadinessResponse.parse(await response.json()) };
}

const baseEnv = { LOG_LEVEL: 'silent' as const, HEALTH_PORT: 0, SHUTDOWN_TIMEOUT_MS: 5_000 };

describe('defineService bootstrap', () => {
  let storageDir: string;
  beforeAll(async () => {
    storageDir = await mkdtemp(path.join(tmpdir(), 'svc-define-service-'));
  });
  afterAll(async () => {
    await rm(storageDir, { recursive: true, force: true });
  });

  it('with no needs: the service closables, then the health server (closed first), checks empty', async () => {
    const { logger, lines } = memoryLogger();
    const order: string[] = [];
    const declaration: ServiceDeclaration<Record<string, never>, typeof baseEnv> = {
      name: 'demo',
      env: () => baseEnv,
      needs: {},
      start: (context) => {
        expect(Object.keys(context.checks)).toEqual([]);
        return [recorder(order, 'first'), recorder(order, 'second')];
      },
    };
    const closables = await startDeclaredService(declaration, baseEnv, logger);
    expect(closables.map((closable) => closable.name)).toEqual(['first', 'second', 'health server']);
    const listening = lines().find((line) => line.msg === 'listening');
    const healthUrl = `http://127.0.0.1:${String(listening?.port)}`;
    expect(await readyz(healthUrl)).toEqual({ status: 200, body: { ok: true, service: 'demo', checks: {} } });
    expect(await closeInReverse(closables, 5_000, logger)).toBe(true);
    expect(order).toEqual(['second', 'first']);
    await expect(fetch(`${healthUrl}/healthz`)).rejects.toThrow();
  });

  it('creates Prisma, the bus and the store in that order and checks redis, postgres and storage', async () => {
    const { logger } = memoryLogger();
    const env = {
      ...baseEnv,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nothing',
      DATABASE_POOL_MAX: 1,
      REDIS_URL,
      BUS_PREFIX: `ds${randomBytes(4).toString('hex')}`,
      BUS_ENCRYPTION_KEY: [randomBytes(32)],
      STORAGE_DRIVER: 'fs' as const,
      STORAGE_DIR: storageDir,
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'unused',
      S3_CREATE_BUCKET: false,
    };
    const order: string[] = [];
    let health = '';
    const closables = await startDeclaredService(
      {
        name: 'demo',
        env: () => env,
        needs: { database: true, bus: { catalog: platformCatalog }, objectStore: true },
        start: async (context) => {
          expect(context.prisma).toBeDefined();
          expect(context.bus.prefix).toBe(env.BUS_PREFIX);
          await context.store.check();
          // Started by the service: it stays where the service puts it, and a second call is the same.
          const server = await context.startHealthServer();
          expect(await context.startHealthServer()).toBe(server);
          health = server.url;
          return [recorder(order, 'rpc'), server, recorder(order, 'run waiter')];
        },
      },
      env,
      logger,
    );
    expect(closables.map((closable) => closable.name)).toEqual([
      'prisma',
      'bus',
      'rpc',
      'demo health server',
      'run waiter',
    ]);
    const { status, body } = await readyz(health);
    expect(status).toBe(503);
    expect(Object.keys(body.checks)).toEqual(['redis', 'postgres', 'storage']);
    expect(body.checks.redis?.ok).toBe(true);
    expect(body.checks.postgres?.ok).toBe(false);
    expect(body.checks.storage?.ok).toBe(true);
    expect(await closeInReverse(closables, 5_000, logger)).toBe(true);
    expect(order).toEqual(['run waiter', 'rpc']);
  });
});
