import { ANSWER_RESERVE_MS } from '@svc/bus';
import { NotFoundError, ServiceUnavailableError } from '@svc/errors';
import { Client } from 'pg';
import { countKeysWithPrefix, pollUntil, startInProcessPlatform, testAdminUrl, testRedisUrl } from '../src';

// The in-process platform itself: services built from the context it hands them (its database, its
// bus, its clients), answering on the in-memory transport; a service it does not serve answers as
// one that is down; close() leaves no database and no Redis key behind. The gateway's suites run it
// with the real services (services/gateway/test/support/platform-services.ts).

async function databaseExists(name: string): Promise<boolean> {
  const admin = new Client({ connectionString: testAdminUrl() });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return found.rowCount === 1;
  } finally {
    await admin.end();
  }
}

it('serves what the services build from its context, and cleans up after itself', async () => {
  const platform = await startInProcessPlatform({
    label: 'inproc_test',
    services: {
      // A registry that reads the platform's own database: the context's Prisma works.
      registry: ({ prisma, client }) => ({
        search: async () => {
          throw new NotFoundError('not in this test');
        },
        describe: async ({ slug }) => {
          const [row] = await prisma.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`;
          // A call to a service nobody serves, through the context's client: the 503 of a timeout.
          const wallet = await client('wallet')
            .balance({ client_id: '5f0c7a62-3c39-4f4e-9a55-0d3c6f0e8a11' })
            .catch((err: unknown) => err);
          if (!(wallet instanceof ServiceUnavailableError)) throw new Error('the wallet answered');
          throw new NotFoundError(`unknown capability: ${slug} (asked in ${row?.name}; ${wallet.message})`);
        },
      }),
    },
  });
  const database = platform.database.name;
  const prefix = platform.bus.prefix;
  try {
    // A key under the platform's prefix (its bus connects on first use, without an offline queue).
    await pollUntil(() => platform.bus.redis.status === 'ready');
    await platform.bus.redis.set(`${prefix}:marker`, '1');
    const error = await platform
      .client('registry')
      .describe({ slug: 'nothing' })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(NotFoundError);
    // The wallet call's timeout (1 s) is bounded by the describe call's deadline (1 s from its
    // start) less the 500 ms the registry keeps to answer (deadline propagation, decisions TR3a).
    const message = (error as Error).message;
    expect(message).toMatch(
      new RegExp(
        `^unknown capability: nothing \\(asked in ${database}; wallet service did not answer within \\d+ ms\\)$`,
      ),
    );
    expect(Number(/within (\d+) ms/.exec(message)?.[1])).toBeLessThanOrEqual(1_000 - ANSWER_RESERVE_MS);
    expect(platform.rpc.calls().map((call) => `${call.service}.${call.method}`)).toEqual([
      'registry.describe',
      'wallet.balance',
    ]);
    expect(await databaseExists(database)).toBe(true);
  } finally {
    await platform.close();
  }
  expect(await databaseExists(database)).toBe(false);
  expect(await countKeysWithPrefix(testRedisUrl(), prefix)).toBe(0);
});
