export type { Logger } from 'pino';
export { type CreateLoggerOptions, createLogger } from './create-logger';
export { type MemoryLogger, memoryLogger } from './memory-logger';
export { REDACT_PATHS } from './redact-paths';
export { REDACTED, scrubSecrets } from './scrub';
