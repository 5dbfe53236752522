export {
  BUS_ENCRYPTION_KEY_BYTES,
  baseEnv,
  busEncryptionEnv,
  DEFAULT_DATA_DIR,
  databaseEnv,
  dataDirEnv,
  LOG_LEVELS,
  NODE_ENVS,
  redisEnv,
  serviceEnv,
} from './fragments';
export {
  booleanFlag,
  durationMs,
  intInRange,
  oneOf,
  type PortOptions,
  pathVar,
  port,
  secretKeyList,
  urlVar,
} from './helpers';
export { ConfigError, type EnvSource, loadEnv, loadEnvOrExit } from './load-env';
export { vaultKeyringEnv } from './vault-keyring';
export { publicBaseUrl, trustProxy } from './web-env';
