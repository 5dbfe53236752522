import { type Bus, type BusCatalog, createBus, servicePresence } from '@svc/bus';
import { createPrismaClient } from '@svc/db';
import { createLogger, type Logger } from '@svc/log';
import { objectStoreFromEnv, type StorageEnv } from '@svc/storage';
import { prismaCheck, type ReadinessCheckFn, redisCheck } from './checks';
import type { Closable } from './closable';
import { type HealthServer, startHealthServer } from './health-server';
import { createMetricsRegistry } from './metrics';
import { runService } from './run-service';
import type {
  BaseServiceEnv,
  BusServiceEnv,
  DatabaseServiceEnv,
  EnvFor,
  ServiceContext,
  ServiceDeclaration,
  ServiceNeeds,
} from './service-declaration';

/**
 * A service process, written once (docs/architecture.md "Processes"): env (the service's loader)
 * → logger → Prisma → bus → object store → `start` (the service's own wiring) → health server
 * (/healthz, /readyz with the checks the needs imply, /metrics, presence on the bus) → runService.
 * SIGTERM/SIGINT close everything in reverse creation order within SHUTDOWN_TIMEOUT_MS: the health
 * server first (withdrawn from the platform, then stops answering), the service's closables from
 * its last to its first, then the bus, then Prisma. Call it once, from the service's main.ts.
 */
export function defineService<const N extends ServiceNeeds, E extends EnvFor<N>>(
  declaration: ServiceDeclaration<N, E>,
): void {
  const env = declaration.env();
  const logger = serviceLogger(declaration.name, env.LOG_LEVEL, declaration.logBindings);
  runService({
    name: declaration.name,
    logger,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    start: () => startDeclaredService(declaration, env, logger),
  });
}

function serviceLogger(
  service: string,
  level: BaseServiceEnv['LOG_LEVEL'],
  bindings: Record<string, string> | undefined,
): Logger {
  const logger = createLogger({ service, level });
  return bindings === undefined ? logger : logger.child(bindings);
}

/** The variables the kit reads: each group is there when its need is declared (EnvFor). */
type KitEnv = BaseServiceEnv & Partial<DatabaseServiceEnv & BusServiceEnv & StorageEnv>;

/** Everything the kit may make for a service; which ones exist follows its needs. */
interface Resources {
  prisma?: ReturnType<typeof createPrismaClient>;
  bus?: Bus;
  store?: ReturnType<typeof objectStoreFromEnv>;
}

/**
 * The `start` of runService for a declaration (exported for tests, which pass their own env and
 * logger and drive it with runLifecycle). Resolves the closables in creation order.
 */
export async function startDeclaredService<N extends ServiceNeeds, E extends EnvFor<N>>(
  declaration: ServiceDeclaration<N, E>,
  env: E,
  logger: Logger,
): Promise<Closable[]> {
  const kitEnv: KitEnv = env;
  const { name, needs } = declaration;
  const closables: Closable[] = [];
  const resources: Resources = {};
  const checks: Record<string, ReadinessCheckFn> = {};
  // Creation order = the reverse of the closing order: Prisma closes last, after the bus.
  if (needs.database === true) {
    const prisma = createPrisma(name, databaseEnvOf(kitEnv), logger);
    closables.push({ name: 'prisma', close: () => prisma.$disconnect() });
    resources.prisma = prisma;
  }
  if (needs.bus !== undefined) {
    const bus = createServiceBus(busEnvOf(kitEnv), needs.bus.catalog, logger);
    closables.push({ name: 'bus', close: () => bus.close() });
    resources.bus = bus;
    checks.redis = redisCheck(bus.redis);
  }
  if (resources.prisma !== undefined) checks.postgres = prismaCheck(resources.prisma);
  if (needs.objectStore === true) {
    // No I/O yet: /readyz checks it (the fs directory is writable, the S3 bucket exists).
    const store = objectStoreFromEnv(storageEnvOf(kitEnv));
    resources.store = store;
    checks.storage = () => store.check();
  }

  const metrics = createMetricsRegistry(name);
  const { bus } = resources;
  const announce = declaration.announce ?? true;
  let health: Promise<HealthServer> | undefined;
  const startHealth = (): Promise<HealthServer> => {
    health ??= startHealthServer({
      service: name,
      port: env.HEALTH_PORT,
      checks,
      registry: metrics,
      ...(bus !== undefined && announce ? { presence: servicePresence(bus, name) } : {}),
      logger,
    });
    return health;
  };

  const context = { env, logger, metrics, checks, startHealthServer: startHealth, ...resources };
  const own = await declaration.start(serviceContext<N, E>(context));
  closables.push(...own);
  // Started last unless the service started it itself (and placed it among its closables).
  const started = health === undefined ? undefined : await health;
  if (started === undefined) {
    const server = await startHealth();
    closables.push({ name: 'health server', close: () => server.close() });
  } else if (!own.includes(started)) {
    closables.push(started);
  }
  return closables;
}

/**
 * The typed view of the context: the resources present are exactly those the needs asked for
 * (startDeclaredService makes one per need), which the conditional type cannot see by itself.
 */
function serviceContext<N extends ServiceNeeds, E>(
  context: ServiceContext<ServiceNeeds, E> & Resources,
): ServiceContext<N, E> {
  return context as ServiceContext<N, E>;
}

function createPrisma(name: string, env: DatabaseServiceEnv, logger: Logger) {
  return createPrismaClient(env.DATABASE_URL, {
    max: env.DATABASE_POOL_MAX,
    // pg_stat_activity names the holder; lost connections are logged, never fatal (@svc/db pool.ts).
    applicationName: name,
    logger,
  });
}

function createServiceBus<C extends BusCatalog>(env: BusServiceEnv, catalog: C, logger: Logger): Bus<C> {
  return createBus({
    catalog,
    redisUrl: env.REDIS_URL,
    prefix: env.BUS_PREFIX,
    logger,
    encryptionKeys: env.BUS_ENCRYPTION_KEY,
  });
}

// EnvFor makes a service's env type carry each group of variables its needs read; inside this
// generic code TypeScript cannot see that, so these narrow at run time (no cast). They only throw
// when an env schema lacks a @svc/config or @svc/storage fragment, at start, naming the need.
function missing(need: string, variables: string): Error {
  return new Error(`the service needs ${need}, but its env has no ${variables}`);
}

function databaseEnvOf(env: KitEnv): DatabaseServiceEnv {
  const { DATABASE_URL, DATABASE_POOL_MAX } = env;
  if (DATABASE_URL === undefined || DATABASE_POOL_MAX === undefined)
    throw missing('a database', 'DATABASE_URL/DATABASE_POOL_MAX (databaseEnv)');
  return { DATABASE_URL, DATABASE_POOL_MAX };
}

function busEnvOf(env: KitEnv): BusServiceEnv {
  const { REDIS_URL, BUS_PREFIX, BUS_ENCRYPTION_KEY } = env;
  if (REDIS_URL === undefined || BUS_PREFIX === undefined || BUS_ENCRYPTION_KEY === undefined)
    throw missing('the bus', 'REDIS_URL/BUS_PREFIX/BUS_ENCRYPTION_KEY (redisEnv, busEncryptionEnv)');
  return { REDIS_URL, BUS_PREFIX, BUS_ENCRYPTION_KEY };
}

function storageEnvOf(env: KitEnv): StorageEnv {
  const { STORAGE_DRIVER, STORAGE_DIR, S3_REGION, S3_BUCKET, S3_CREATE_BUCKET } = env;
  if (
    STORAGE_DRIVER === undefined ||
    STORAGE_DIR === undefined ||
    S3_REGION === undefined ||
    S3_BUCKET === undefined ||
    S3_CREATE_BUCKET === undefined
  )
    throw missing('an object store', 'STORAGE_* variables (storageEnv)');
  return { ...env, STORAGE_DRIVER, STORAGE_DIR, S3_REGION, S3_BUCKET, S3_CREATE_BUCKET };
}
