// jest globalSetup of the `integration` project (see jest.config.js): runs once, in jest's main
// process, before any *.int.test.ts suite. It makes sure a PostgreSQL and a Redis answer and puts
// their URLs in process.env.TEST_DATABASE_ADMIN_URL / TEST_REDIS_URL. Test workers are forked after
// this and inherit process.env (packages/devstack/test/integration-env.int.test.ts checks that).
// It also builds the migrated template database the suites' databases are copied from, and one
// bundle per service for the suites' stacks to start (TESTKIT_SERVICE_BUNDLES).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureMigratedTemplate } from '../packages/db/src/migrate/template-database';
import {
  buildServiceBundles,
  consoleLogger,
  findWorkspaceRoot,
  prepareIntegrationStack,
  redactUrl,
} from '../packages/devstack/src/index';
import { SERVICE_BUNDLES_ENV, SERVICE_BUNDLES_OFF } from '../packages/testkit/src/service-bundles';
import { prepareSharedStackDir } from '../packages/testkit/src/shared-stack-files';
import { setIntegrationStack } from './integration-stack';

const logger = consoleLogger('integration-setup');

export default async function integrationSetup(): Promise<void> {
  const stack = await prepareIntegrationStack({
    rootDir: findWorkspaceRoot(__dirname),
    givenDatabaseUrl: process.env.TEST_DATABASE_ADMIN_URL,
    givenRedisUrl: process.env.TEST_REDIS_URL,
  });
  // Every service, bundled once for all the suites' stacks (packages/devstack/src/service-bundles.ts);
  // TESTKIT_SERVICE_BUNDLES=off runs them from source under tsx instead.
  const stops = [...stack.stops];
  if (process.env[SERVICE_BUNDLES_ENV] !== SERVICE_BUNDLES_OFF) {
    const bundles = await mkdtemp(join(tmpdir(), 'svc-service-bundles-'));
    const built = Date.now();
    await buildServiceBundles(findWorkspaceRoot(__dirname), bundles);
    logger.info(`bundled the services in ${Date.now() - built} ms into ${bundles}`);
    process.env[SERVICE_BUNDLES_ENV] = bundles;
    stops.unshift(() => rm(bundles, { recursive: true, force: true }));
  }
  setIntegrationStack({ stops });
  process.env.TEST_DATABASE_ADMIN_URL = stack.databaseAdminUrl;
  process.env.TEST_REDIS_URL = stack.redisUrl;
  // The migrated template every createTestDatabase copies: built here, once, so that no suite's
  // beforeAll pays for it (suites still ensure it themselves, so a missing one is rebuilt).
  await ensureMigratedTemplate(stack.databaseAdminUrl, { log: (line) => logger.info(line) });
  // Where the suites sharing one platform (sharedTestStack) find it; started by the first to ask.
  await prepareSharedStackDir();
  logger.info(`PostgreSQL ${redactUrl(stack.databaseAdminUrl)}, Redis ${redactUrl(stack.redisUrl)}`);
}
