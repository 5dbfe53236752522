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
export * from './crt';
export {
  CONTRACT_DEPRECATIONS,
  CONTRACT_ELEMENT_PREFIXES,
  CONTRACT_HEADERS_MARKDOWN,
  CONTRACT_VERSION_HEADER,
  ContractDeprecation,
  ContractDeprecations,
  ContractElementId,
  deprecationHeaderValue,
  deprecationNotice,
  replacementLabel,
  sunsetHeaderValue,
  utcDaySeconds,
} from './deprecations';
export {
  actionableRunStatus,
  blockedModeMessage,
  canQuoteAndRun,
  EFFECTIVE_RUN_STATUSES,
  EffectiveRunStatus,
  effectiveRunStatus,
  MACHINE_RUN_STATUSES,
  MachineRunStatus,
  RUN_STATE_TRANSITIONS,
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
export type { OperationFacts } from './mcp-tool-operation';
export {
  MCP_READ_ONLY,
  MCP_TOOL_BUDGETS,
  MCP_TOOL_DESCRIPTORS,
  McpArtifactsTool,
  McpBalanceTool,
  McpCancelTool,
  McpClientTypeArg,
  McpDescribeTool,
  McpQuoteTool,
  McpRunTool,
  McpSearchTool,
  McpSlugArg,
  McpStatusTool,
  type McpToolDescriptor,
  type McpToolHints,
  McpUploadSessionTool,
} from './mcp-tools';
export * from './messages/api-keys';
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
export {
  capabilityWorkersKey,
  heldRunsKey,
  runtimeWorkersKey,
  WORKER_HEARTBEAT_TTL_MS,
} from './messages/keys';
export {
  callsOtherServices,
  isRpcService,
  NESTED_RPC_SERVICES,
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
export * from './messages/rpc-schemas';
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
export {
  type AnyApiOperation,
  type ApiOperationById,
  type ApiOperationId,
  apiOperation,
  apiOperations,
  buildOpenApiDocument,
  componentNameOf,
  type OpenApiDocument,
} from './openapi/document';
export {
  type ApiOperation,
  ERROR_DESCRIPTIONS,
  type ErrorStatus,
  type HttpMethod,
  type OperationAuth,
  type RequestBody,
} from './openapi/operation';
export {
  type BodySchema,
  defineOperation,
  NoQuery,
  type OperationAnswer,
  type OperationBody,
  type OperationHeaders,
  type OperationPathParams,
  type OperationQuery,
  operationPath,
  type ParameterSchema,
} from './openapi/operation-types';
export {
  PREFER_WAIT_MAX_SECONDS,
  type PreferenceApplied,
  PreferenceAppliedHeader,
  PreferWaitHeader,
} from './openapi/prefer-wait';
export { RunHeaders } from './openapi/quote-run-operations';
export {
  isRateLimitBudget,
  RATE_LIMIT_BUDGETS,
  type RateLimitBudget,
  type RateLimitClass,
  RateLimitHeaders,
  rateLimitClassOf,
  TooManyRequestsHeaders,
} from './openapi/rate-limits';
export { CrtRunHeaders } from './openapi/run-operations';
export { operationLabel, operationsByScope, type ScopeRow, scopeTableMarkdown } from './openapi/scope-table';
export { VaultDocumentIdParams } from './openapi/vault-operations';
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
  ListRunsQuery,
  type ListRunsQueryInput,
  ListRunsResponse,
  RUN_LIST_DEFAULT_LIMIT,
  RUN_LIST_MAX_LIMIT,
  RUN_TIMELINE_EVENTS,
  RunCountsRequest,
  RunCountsResponse,
  RunListCursor,
  RunSummary,
  RunTimelineEvent,
  RunTimelineEventKind,
  RunTimelineRequest,
  RunTimelineResponse,
} from './run-list';
export { SCOPE_DOCS } from './scope-docs';
export * from './uploads';
// The vault's wire shapes (spec §4.15-4.20).
export {
  CandidateDecision,
  CandidateStatus,
  CreateExtractionRequest,
  CreateExtractionRpc,
  DeleteVaultFieldQuery,
  DeleteVaultFieldResponse,
  DeleteVaultFieldRpc,
  ExtractionCandidate,
  ExtractionIdParams,
  ExtractionResponse,
  ExtractionStatus,
  FillDocumentRequest,
  FillDocumentResponse,
  FillDocumentRpc,
  FillReport,
  FillTemplate,
  GetExtractionRpc,
  GetVaultDocumentRpc,
  ListExtractionsQuery,
  ListExtractionsResponse,
  ListExtractionsRpc,
  ListVaultDocumentsResponse,
  ListVaultDocumentsRpc,
  ListVaultFieldsResponse,
  ReviewExtractionRequest,
  ReviewExtractionResponse,
  ReviewExtractionRpc,
  SaveVaultFieldRequest,
  SaveVaultFieldResponse,
  SaveVaultFieldRpc,
  VAULT_COMMON_PROFILE_FIELDS,
  VAULT_DOCUMENT_CONTENT_TYPES,
  VAULT_DOCUMENT_MAX_BYTES,
  VAULT_DOCUMENT_TEXT_MAX_CHARACTERS,
  VAULT_DOCUMENT_UPLOAD_SLUG,
  VAULT_FIELD_NAME_PATTERN,
  VAULT_FIELD_TYPE_DOCS,
  VAULT_FIELD_TYPES,
  VAULT_MAX_CANDIDATES,
  VAULT_MAX_FIELDS_PER_CLIENT,
  VAULT_TEMPLATE_TEXT_MAX_CHARACTERS,
  VAULT_VALUE_MAX_CHARACTERS,
  VaultAuditEvent,
  VaultAuditPurpose,
  VaultAuditQuery,
  VaultAuditResponse,
  VaultAuditRpc,
  VaultClientRequest,
  VaultDocument,
  VaultDocumentSource,
  VaultExtraction,
  VaultField,
  VaultFieldName,
  VaultFieldNameParams,
  VaultFieldSource,
  VaultFieldType,
  VaultProfileResponse,
  VaultRotationState,
} from './vault';
