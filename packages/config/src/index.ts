export {
  BUS_ENCRYPTION_KEY_BYTES,
  baseEnv,
  busDatabaseServiceEnv,
  busEncryptionEnv,
  DEFAULT_DATA_DIR,
  databaseEnv,
  dataDirEnv,
  LOG_LEVELS,
  NODE_ENVS,
  redisEnv,
  serviceEnv,
} from './fragments';
export * from './helpers';
export { ConfigError, type EnvSource, envLoader, loadEnv, loadEnvOrExit } from './load-env';
export { vaultKeyringEnv } from './vault-keyring';
export { publicBaseUrl, trustProxy } from './web-env';
