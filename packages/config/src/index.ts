export { baseEnv, databaseEnv, healthEnv, LOG_LEVELS, NODE_ENVS, redisEnv } from './fragments';
export { booleanFlag, durationMs, intInRange, oneOf, type PortOptions, port, urlVar } from './helpers';
export { ConfigError, type EnvSource, loadEnv, loadEnvOrExit } from './load-env';
