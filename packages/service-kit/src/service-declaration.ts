import type { Bus, BusCatalog } from '@svc/bus';
import type { PrismaClient } from '@svc/db';
import type { CreateLoggerOptions, Logger } from '@svc/log';
import type { ObjectStore, StorageEnv } from '@svc/storage';
import type { Registry } from 'prom-client';
import type { ReadinessCheckFn } from './checks';
import type { Closable } from './closable';
import type { HealthServer } from './health-server';

/**
 * The bus a service speaks on: `createBus` is handed this message catalog (RPC methods, jobs,
 * events: @svc/contracts messageCatalog, or @svc/capabilities' with the capability jobs).
 */
export interface BusNeed<C extends BusCatalog = BusCatalog> {
  catalog: C;
}

/**
 * What a service needs besides its own code; each one is created before `start`, checked by
 * /readyz under the name in brackets, and closed after the service's own closables:
 * - `database`: a Prisma client on DATABASE_URL (pool of DATABASE_POOL_MAX) [postgres];
 * - `bus`: the Redis bus on REDIS_URL/BUS_PREFIX, sealed with BUS_ENCRYPTION_KEY [redis];
 * - `objectStore`: the object store of the STORAGE_* variables (no I/O until used) [storage].
 */
export interface ServiceNeeds {
  database?: boolean;
  bus?: BusNeed;
  objectStore?: boolean;
}

/** What every service's env schema has (@svc/config baseEnv + serviceEnv). */
export interface BaseServiceEnv {
  LOG_LEVEL: NonNullable<CreateLoggerOptions['level']>;
  /** The health server's port (/healthz, /readyz, /metrics); 0 picks a free one. */
  HEALTH_PORT: number;
  /** ms: budget of the whole graceful shutdown. */
  SHUTDOWN_TIMEOUT_MS: number;
}

/** @svc/config databaseEnv. */
export interface DatabaseServiceEnv {
  DATABASE_URL: string;
  DATABASE_POOL_MAX: number;
}

/** @svc/config redisEnv + busEncryptionEnv. */
export interface BusServiceEnv {
  REDIS_URL: string;
  BUS_PREFIX: string;
  BUS_ENCRYPTION_KEY: readonly Uint8Array[];
}

type Needs<N, K extends keyof ServiceNeeds> =
  N extends Required<Pick<ServiceNeeds, K>> ? (N[K] extends false ? false : true) : false;

/** The env a service with needs `N` must parse: the variables the kit reads for each need. */
export type EnvFor<N extends ServiceNeeds> = BaseServiceEnv &
  (Needs<N, 'database'> extends true ? DatabaseServiceEnv : unknown) &
  (Needs<N, 'bus'> extends true ? BusServiceEnv : unknown) &
  (Needs<N, 'objectStore'> extends true ? StorageEnv : unknown);

/** What `start` is handed. */
export interface BaseServiceContext<E> {
  env: E;
  logger: Logger;
  /** Served on /metrics; register the service's own metrics on it. */
  metrics: Registry;
  /** The readiness checks derived from the needs (redis, postgres, storage, in that order). */
  checks: Record<string, ReadinessCheckFn>;
  /**
   * Starts the health server now instead of after `start` (the gateway: its public HTTP server and
   * run waiter must close before it). Put the result in the returned closables where it should
   * close; the same server is returned on every call.
   */
  startHealthServer(): Promise<HealthServer>;
}

/** The context of a service with needs `N`: a resource for each need, typed. */
export type ServiceContext<N extends ServiceNeeds, E> = BaseServiceContext<E> &
  (Needs<N, 'database'> extends true ? { prisma: PrismaClient } : unknown) &
  (N extends { bus: BusNeed<infer C> } ? { bus: Bus<C> } : unknown) &
  (Needs<N, 'objectStore'> extends true ? { store: ObjectStore } : unknown);

export interface ServiceDeclaration<N extends ServiceNeeds, E extends EnvFor<N>> {
  /** The `service` of every log line, the process title, the health answers and the presence key. */
  name: string;
  /**
   * The service's env loader (its env.ts: the only place that reads process.env); a bad variable
   * prints which one and exits 1 before anything starts.
   */
  env: () => E;
  needs: N;
  /** Fields on every log line of the process besides `service` (the worker's `worker_id`). */
  logBindings?: Record<string, string>;
  /**
   * Reports this instance's readiness on the bus (servicePresence) for the gateway's /readyz.
   * Default true when the service has a bus; the gateway itself is not reported on (false).
   */
  announce?: boolean;
  /**
   * Builds the service on what the kit made and returns its own closables IN CREATION ORDER: they
   * close in reverse, after the health server and before the object store, bus and Prisma.
   */
  start(context: ServiceContext<N, E>): Promise<readonly Closable[]> | readonly Closable[];
}
