export { Counter, Gauge, Histogram, type Registry } from 'prom-client';
export {
  type CapabilityDirectory,
  type CapabilityDirectoryOptions,
  createCapabilityDirectory,
  type FetchCapability,
} from './capability-directory';
export { type Pingable, prismaCheck, type RawQueryable, type ReadinessCheckFn, redisCheck } from './checks';
export type { Closable } from './closable';
export { crashPoint } from './crash-point';
export { defineService, startDeclaredService } from './define-service';
export { type HealthServer, type HealthServerOptions, startHealthServer } from './health-server';
export { answerClientErrors } from './http-client-errors';
export {
  closeInReverse,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type LifecycleOptions,
  runLifecycle,
} from './lifecycle';
export { type HttpServerHandle, type ListenHttpOptions, listenHttp } from './listen-http';
export { createMetricsRegistry } from './metrics';
export {
  type BackingServicesReader,
  DEFAULT_CHECK_TIMEOUT_MS,
  type ReadinessReporterOptions,
  readinessReporter,
  runReadinessChecks,
} from './readiness';
export {
  type ReadinessHeartbeat,
  type ReadinessHeartbeatOptions,
  type ReadinessPresence,
  startReadinessHeartbeat,
} from './readiness-heartbeat';
export { runService } from './run-service';
export type {
  BaseServiceContext,
  BusNeed,
  EnvFor,
  ServiceContext,
  ServiceDeclaration,
  ServiceNeeds,
} from './service-declaration';
export { SingleFlightCache, type SingleFlightCacheOptions } from './single-flight-cache';
