export { BalanceResponse, WhoAmIResponse } from './account';
export { Apex, apexProblem } from './apex';
export {
  Artifact,
  ArtifactDownloadQuery,
  ArtifactIdParams,
  ArtifactManifestResponse,
  ArtifactName,
  ProducedArtifact,
} from './artifacts';
export {
  acceptsContentType,
  CapabilityExecution,
  CapabilityRecord,
  CapabilitySummary,
  ExecutionMode,
  FileRequirements,
  ManifestExecution,
  NO_FILES,
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
  Sha256Hex,
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
  actionableRunStatus,
  blockedModeMessage,
  canQuoteAndRun,
  EFFECTIVE_RUN_STATUSES,
  EffectiveRunStatus,
  effectiveRunStatus,
  MACHINE_RUN_STATUSES,
  MachineRunStatus,
  RUN_STATES,
  RunState,
} from './execution';
export { HealthResponse, ReadinessCheck, ReadinessResponse, ServiceReadiness } from './health';
export { JSON_INPUT_LIMITS, JSON_INPUT_RULES_MARKDOWN, type JsonInputLimits } from './json-limits';
export { type JsonSchemaIo, type JsonSchemaTarget, toJsonSchema } from './json-schema';
export {
  BURN_WINDOWS,
  BurnWindow,
  CapabilityUsage,
  LEDGER_ENTRY_KINDS,
  LedgerEntryKind,
  LedgerLine,
  RunLedger,
  RunReceiptResponse,
  SignedUsdAmount,
  SpendDiagnosticsResponse,
  USAGE_LINES_DEFAULT,
  USAGE_LINES_MAX,
  USAGE_MAX_SPAN_MS,
  UsageLine,
  UsageStatementQuery,
  UsageStatementResponse,
} from './ledger';
export { MCP_TOOL_NAMES, McpJsonRpcMessage, type McpToolName } from './mcp';
export {
  type PlatformCatalog,
  type PlatformJobName,
  type PlatformJobPayload,
  type PlatformJobPayloadInput,
  type PlatformJobs,
  platformCatalog,
} from './messages/catalog';
export {
  type EventCatalog,
  type EventName,
  type EventPayload,
  type EventPayloadInput,
  eventCatalog,
  isEventName,
} from './messages/events';
export {
  CapabilityJobResult,
  capabilityJobOptions,
  INTERNAL_ERROR_MESSAGE,
  INTERNAL_RUN_ERROR,
  type JobDefinition,
  type JobOptions,
  type KeptJobs,
  platformJobs,
  retention,
  transientRetry,
} from './messages/jobs';
export { heldRunsKey, runtimeWorkersKey, WORKER_HEARTBEAT_TTL_MS } from './messages/keys';
export {
  isRpcService,
  PingRequest,
  PingResponse,
  RPC_SERVICES,
  type RpcCatalog,
  type RpcMethod,
  type RpcMethodName,
  type RpcRequest,
  type RpcRequestInput,
  type RpcResponse,
  type RpcResponseInput,
  type RpcService,
  rpcCatalog,
} from './messages/rpc';
export {
  CancelRunResult,
  CreateUploadSessionRequest,
  CreateUploadSessionResponse,
  HoldForRunRequest,
  HoldForRunResponse,
  IssueQuoteRequest,
  ListArtifactsRequest,
  OpenHoldsRequest,
  OpenHoldsResponse,
  QuoteCapabilityRequest,
  RegisterArtifactsRequest,
  ResolveFilesRequest,
  ResolveFilesResponse,
  StartCrtRunRequest,
  StartRunRequest,
  StartRunResponse,
} from './messages/rpc-schemas';
export {
  ClaimAttemptRequest,
  ClaimAttemptResponse,
  ClaimRefusal,
  ReportRunResponse,
  RunJobId,
  RunMetrics,
  RunReport,
  SettleRunRequest,
  SettleRunResponse,
} from './messages/run-attempts';
export { MICROS_PER_USD, microsFromUsd, signedUsdFromMicros, usdFromMicros } from './money';
export { SpendDiagnosticsQuery } from './openapi/account-operations';
export { apiOperations, buildOpenApiDocument, type OpenApiDocument } from './openapi/document';
export type { ApiOperation, ErrorStatus, HttpMethod } from './openapi/operation';
export { RunHeaders } from './openapi/quote-run-operations';
export {
  isRateLimitBudget,
  MCP_TOOL_BUDGETS,
  RATE_LIMIT_BUDGETS,
  type RateLimitBudget,
  type RateLimitClass,
  RateLimitHeaders,
  rateLimitClassOf,
  TooManyRequestsHeaders,
} from './openapi/rate-limits';
export { CrtRunHeaders } from './openapi/run-operations';
export { operationLabel, operationsByScope, type ScopeRow, scopeTableMarkdown } from './openapi/scope-table';
export { type ComputedPrice, computePrice, PriceDetail, priceUsd } from './pricing';
export {
  CapabilityInputObject,
  Quote,
  QuoteExecution,
  QuoteRequest,
  QuoteResponse,
  WalletClearance,
} from './quote';
export {
  CancelRunResponse,
  isTerminalRunState,
  RUN_ERROR_CODES,
  RunError,
  RunIdParams,
  RunRecord,
  RunRequest,
  RunStartResponse,
  RunStatusResponse,
  TERMINAL_RUN_STATES,
} from './run';
export {
  ContentType,
  CSV_DELIMITERS,
  CSV_MAX_COLUMNS,
  CSV_MAX_RECORD_CHARACTERS,
  CsvDelimiter,
  CsvFacts,
  FileFacts,
  Filename,
  ResolvedFile,
  UPLOAD_MAX_BYTES,
  UploadId,
  UploadIdParams,
  UploadRecord,
  UploadResponse,
  UploadSessionInput,
  UploadSessionRequest,
  UploadSessionResponse,
  UploadStatus,
} from './uploads';
