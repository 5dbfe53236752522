import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import { storeUnavailableError, unavailableStore } from '@svc/errors';
import {
  type CommandResult,
  createTestDatabase,
  runCommand,
  sleep,
  startTcpProxy,
  type TcpProxy,
  type TestDatabase,
} from '@svc/testkit';

// Issue 13, finding 10: a PostgreSQL restart crashed the orchestrator, and while the database was
// down its RPC answers were 500 "internal error" where decisions D1 promises 503 + Retry-After.

const FIXTURE = path.join(__dirname, 'fixtures', 'pool-handover-race.ts');
const ROOT = path.join(__dirname, '..', '..', '..');

function runFixture(): Promise<CommandResult> {
  return runCommand(process.execPath, ['--import', 'tsx', FIXTURE], { cwd: ROOT });
}

/** The rejection of `work`, which must fail. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error('expected the database call to fail');
}

describe('a lost PostgreSQL connection (createPrismaClient)', () => {
  it('does not end the process when it is lost while pg-pool hands it to a waiting transaction', async () => {
    const { code, stdout, stderr } = await runFixture();
    expect({ code, stderr: stderr.slice(-2_000) }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toMatchObject({ survived: true, query: 'ok' });
  });

  describe('rejections are classified as "PostgreSQL unavailable" (503), whatever their shape', () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let prisma: PrismaClient;
    const applicationName = `loss_${randomBytes(4).toString('hex')}`;

    const terminateConnections = () =>
      database.prisma.$queryRawUnsafe(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        applicationName,
      );
    const activeQueries = async () =>
      (
        await database.prisma.$queryRawUnsafe<unknown[]>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'",
          applicationName,
        )
      ).length;

    beforeAll(async () => {
      database = await createTestDatabase('loss');
      const url = new URL(database.url);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      prisma = createPrismaClient(url.toString(), { max: 2, applicationName });
    });

    afterAll(async () => {
      await prisma?.$disconnect();
      await proxy?.close();
      await database?.drop();
    });

    afterEach(async () => {
      await proxy.restore();
    });

    it.each([
      ['a model query', () => prisma.run.findMany({ take: 1 })],
      ['a raw query', () => prisma.$queryRawUnsafe('SELECT 1')],
      ['a transaction', () => prisma.$transaction(async (tx) => tx.run.count())],
    ])('the server refuses connections: %s', async (_what, work) => {
      await proxy.cut();
      const err = await failureOf(work);
      expect(unavailableStore(err)).toBe('PostgreSQL');
      expect(storeUnavailableError(err, 'orchestrator')).toMatchObject({
        status: 503,
        message: 'the orchestrator service cannot reach PostgreSQL; try again in a few seconds',
      });
    });

    it('the connection is terminated (57P01) during a query', async () => {
      const err = await failureOf(() =>
        Promise.all([
          prisma.$queryRawUnsafe('SELECT 1 AS slept FROM pg_sleep(5)'),
          (async () => {
            // The query must be running before its connection is terminated.
            while ((await activeQueries()) === 0) await sleep(20);
            await terminateConnections();
          })(),
        ]),
      );
      expect(unavailableStore(err)).toBe('PostgreSQL');
    });

    it('the connection of an open transaction is terminated between two of its queries', async () => {
      const err = await failureOf(() =>
        prisma.$transaction(async (tx) => {
          await tx.run.count();
          await terminateConnections();
          // The notice arrives while the transaction waits here, or during the next query.
          await tx.$queryRawUnsafe('SELECT 1 AS slept FROM pg_sleep(0.2)');
          await tx.run.count();
        }),
      );
      expect(unavailableStore(err)).toBe('PostgreSQL');
    });

    it('the connection is reset (the host went away mid-query)', async () => {
      const err = await failureOf(() =>
        Promise.all([
          prisma.$queryRawUnsafe('SELECT 1 AS slept FROM pg_sleep(5)'),
          (async () => {
            while ((await activeQueries()) === 0) await sleep(20);
            await proxy.cut();
          })(),
        ]),
      );
      expect(unavailableStore(err)).toBe('PostgreSQL');
    });

    it('is not fooled by errors of a healthy database', async () => {
      const id = randomUUID();
      const row = {
        id,
        clientId: randomUUID(),
        slug: 'crt',
        clientType: 'test',
        input: {},
        requestHash: 'h',
        runtime: 'node',
        executionStatus: 'supported',
        quoteId: id,
        publicId: id,
      };
      await prisma.run.create({ data: row });
      const duplicate = await failureOf(() => prisma.run.create({ data: row }));
      expect(unavailableStore(duplicate)).toBeUndefined();
      const badSql = await failureOf(() => prisma.$queryRawUnsafe('SELECT * FROM no_such_table'));
      expect(unavailableStore(badSql)).toBeUndefined();
      // And the client serves again after all of the above.
      expect(await prisma.run.count()).toBe(1);
    });
  });
});
