export { connectionSettled } from './connection-settled';
export { FALLBACK_WARNING_WINDOW_MS, type FallbackWarningOptions, fallbackWarning } from './fallback-warning';
export {
  type CountResult,
  REDIS_TIMEOUT_MS,
  SharedCounter,
  type SharedCounterOptions,
} from './shared-counter';
