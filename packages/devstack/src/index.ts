export {
  type InstanceRecord,
  instancesDir,
  readInstanceRecords,
  removeInstanceRecord,
  writeInstanceRecord,
} from './instance-records';
export { consoleLogger, type DevstackLogger, silentLogger } from './logger';
export { freePort, tcpAnswers } from './net';
export {
  type ChosenPorts,
  DATA_PORT_SERVICES,
  DATABASE_SERVICE_NAMES,
  type DatabaseServiceName,
  DEFAULT_DASHBOARD_DATA_PORT,
  DEFAULT_GATEWAY_PORT,
  DEFAULT_HEALTH_PORTS,
  DEFAULT_UPLOADS_DATA_PORT,
  dataUrlEnv,
  PLATFORM_SERVICES,
  type PlatformService,
  platformService,
  portEnv,
  probeBaseUrl,
  SERVICE_NAMES,
  type ServiceName,
  type ServicePorts,
  STOP_ORDER,
  schemaOwner,
  serviceEntry,
  servicePorts,
} from './platform-services';
export {
  DEFAULT_DATABASE,
  EMBEDDED_POSTGRES_PORT,
  type EnsurePostgresOptions,
  ensurePostgres,
  type PostgresHandle,
} from './postgres';
export { type CreateDatabaseOptions, createDatabase, dropDatabase, pingPostgres } from './postgres-client';
export { isProcessAlive } from './postmaster-pid';
export {
  DEFAULT_REDIS_URL,
  type EnsureRedisOptions,
  ensureRedis,
  pingRedis,
  type RedisHandle,
} from './redis';
export {
  busEncryptionKeyPath,
  displayPath,
  findWorkspaceRoot,
  type RuntimeInfo,
  readRuntimeInfo,
  removeRuntimeInfo,
  resolveDataDir,
  runtimeInfoPath,
  vaultKeyringPath,
  writeRuntimeInfo,
} from './runtime-info';
export {
  buildServiceBundles,
  bundledServiceArguments,
  bundleEntries,
  PARENT_WATCH_SOURCE,
  type ServiceNodeOptions,
  serviceBundlePath,
  sourceServiceArguments,
} from './service-bundles';
export {
  LOCAL_POSTGRES_URL,
  LOCAL_REDIS_URL,
  type PreparedStack,
  type PrepareOptions,
  prepareIntegrationStack,
} from './test-infrastructure';
export { redactUrl, withDatabase } from './urls';
