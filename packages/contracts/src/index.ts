export { BalanceResponse, WhoAmIResponse } from './account';
export { Apex, apexProblem } from './apex';
export {
  CapabilityExecution,
  CapabilityRecord,
  CapabilitySummary,
  ExecutionMode,
  FileRequirements,
  ManifestExecution,
  Pricing,
  publishedExecution,
} from './capability';
export {
  CapabilitySlugParams,
  DescribeCapabilityResponse,
  JsonSchemaObject,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
} from './capability-api';
export { CapabilityManifest, manifestInputJsonSchema } from './capability-manifest';
export {
  API_VERSION,
  ClientType,
  DateTime,
  ErrorResponse,
  Hostname,
  IdempotencyKey,
  SCOPES,
  Scope,
  Slug,
  UsdAmount,
  Uuid,
} from './common';
export {
  CRT_DEFAULT_LIMIT,
  CRT_MAX_LIMIT,
  CrtCompletedRunResponse,
  CrtInput,
  CrtObservation,
  CrtReplayRunResponse,
  CrtResult,
  CrtRunRequest,
  CrtRunResponse,
} from './crt';
export {
  canQuoteAndRun,
  EFFECTIVE_RUN_STATUSES,
  EffectiveRunStatus,
  effectiveRunStatus,
  MACHINE_RUN_STATUSES,
  MachineRunStatus,
  RUN_STATES,
  RunState,
} from './execution';
export { HealthResponse, ReadinessCheck, ReadinessResponse } from './health';
export { type JsonSchemaIo, toJsonSchema } from './json-schema';
export { MICROS_PER_USD, microsFromUsd, usdFromMicros } from './money';
export { apiOperations, buildOpenApiDocument, type OpenApiDocument } from './openapi/document';
export type { ApiOperation, ErrorStatus, HttpMethod } from './openapi/operation';
export { CrtRunHeaders } from './openapi/run-operations';
export { Quote, WalletClearance } from './quote';
export {
  isTerminalRunState,
  RUN_ERROR_CODES,
  RunError,
  RunIdParams,
  RunRecord,
  RunStatusResponse,
  TERMINAL_RUN_STATES,
} from './run';
