/**
 * @svc/sdk: a TypeScript client of the capability service whose types and answer checks come from
 * @svc/contracts, implementing the spec's client rules (README "SDK"; docs/decisions.md SK1-SK8).
 */
// The wire types a caller handles, from the contracts (the packaged .d.ts inlines them).
export type {
  Artifact,
  ArtifactManifestResponse,
  BalanceResponse,
  DescribeCapabilityResponse,
  ListCapabilitiesResponse,
  ListRunsQueryInput,
  ListRunsResponse,
  Quote,
  RunRecord,
  RunState,
  RunStatusResponse,
  RunSummary,
  UsageStatementResponse,
  WhoAmIResponse,
} from '@svc/contracts';
export {
  type DownloadResult,
  newIdempotencyKey,
  type ProgressEvent,
  type RunOptions,
  runStatusOfDescribe,
  type StartedRun,
  SvcClient,
  type SvcClientOptions,
  type UploadFile,
  type WaitOptions,
} from './client';
export * from './errors';
export {
  backoffDelay,
  DEFAULT_RETRY,
  isRetryable,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  type RetryOptions,
  retryDelay,
} from './retry';
export { isKnownRunState, isTerminalState, TERMINAL_STATES } from './states';
