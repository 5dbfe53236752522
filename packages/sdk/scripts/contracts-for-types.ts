/**
 * What the SDK's declaration build (tsconfig.build.json `paths`) sees as `@svc/contracts`: the
 * contracts modules the SDK's sources import, and nothing else. The package's own index also
 * re-exports the bus catalogs (messages/) and the OpenAPI operations, whose zod types took 6 of
 * the 9 s tsc spent on the build (decisions SK15); the SDK uses none of them. A name the SDK
 * imports that is missing here fails the build (TS2305), so this list cannot silently fall behind.
 */
export { BalanceResponse, WhoAmIResponse } from '../../contracts/src/account';
export { type Artifact, ArtifactManifestResponse } from '../../contracts/src/artifacts';
export { acceptsContentType } from '../../contracts/src/capability';
export { DescribeCapabilityResponse, ListCapabilitiesResponse } from '../../contracts/src/capability-api';
export { ErrorResponse, IdempotencyKey } from '../../contracts/src/common';
export { CrtCompletedRunResponse, CrtReplayRunResponse } from '../../contracts/src/crt';
export { CONTRACT_VERSION_HEADER } from '../../contracts/src/deprecations';
export {
  blockedModeMessage,
  canQuoteAndRun,
  type EffectiveRunStatus,
  effectiveRunStatus,
  RUN_STATE_TRANSITIONS,
  RUN_STATES,
  type RunState,
} from '../../contracts/src/execution';
export { UsageStatementResponse } from '../../contracts/src/ledger';
export { type Quote, QuoteResponse } from '../../contracts/src/quote';
export {
  CancelRunResponse,
  type RunRecord,
  RunStartResponse,
  RunStatusResponse,
} from '../../contracts/src/run';
export {
  ListRunsQuery,
  type ListRunsQueryInput,
  ListRunsResponse,
  type RunSummary,
} from '../../contracts/src/run-list';
export {
  ContentType,
  Filename,
  UPLOAD_MAX_BYTES,
  UploadResponse,
  UploadSessionResponse,
} from '../../contracts/src/uploads';
