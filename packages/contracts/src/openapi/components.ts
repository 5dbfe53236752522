import type { z } from 'zod';
import { BalanceResponse, WhoAmIResponse } from '../account';
import { Artifact, ArtifactManifestResponse } from '../artifacts';
import {
  CapabilityExecution,
  CapabilityRecord,
  CapabilitySummary,
  FileRequirements,
  Pricing,
} from '../capability';
import { DescribeCapabilityResponse, ListCapabilitiesResponse } from '../capability-api';
import { ClientType, ErrorResponse, IdempotencyKey, Scope, UsdAmount } from '../common';
import {
  CrtCompletedRunResponse,
  CrtInput,
  CrtObservation,
  CrtReplayRunResponse,
  CrtResult,
  CrtRunRequest,
} from '../crt';
import { EffectiveRunStatus, MachineRunStatus, RunState } from '../execution';
import { HealthResponse, ReadinessResponse } from '../health';
import {
  CapabilityUsage,
  LedgerLine,
  RunLedger,
  RunReceiptResponse,
  SpendDiagnosticsResponse,
  UsageLine,
  UsageStatementResponse,
} from '../ledger';
import { PriceDetail } from '../pricing';
import { Quote, QuoteExecution, QuoteRequest, QuoteResponse, WalletClearance } from '../quote';
import { RunError, RunRecord, RunRequest, RunStartResponse, RunStatusResponse } from '../run';
import { ListRunsResponse, RunSummary } from '../run-list';
import {
  FileFacts,
  UploadRecord,
  UploadResponse,
  UploadSessionInput,
  UploadSessionRequest,
  UploadSessionResponse,
  UploadStatus,
} from '../uploads';

/**
 * Named schemas under `components.schemas`. Every use of one of these exact zod instances in an
 * operation becomes a `$ref`. Schemas no operation uses yet are rendered on the side given by
 * `io`: request bodies (`input`: defaulted fields optional) or responses (`output`).
 */
export const componentSchemas: Readonly<Record<string, { schema: z.ZodType; io: 'input' | 'output' }>> = {
  ErrorResponse: { schema: ErrorResponse, io: 'output' },
  UsdAmount: { schema: UsdAmount, io: 'output' },
  Scope: { schema: Scope, io: 'output' },
  ClientType: { schema: ClientType, io: 'input' },
  IdempotencyKey: { schema: IdempotencyKey, io: 'input' },
  MachineRunStatus: { schema: MachineRunStatus, io: 'output' },
  EffectiveRunStatus: { schema: EffectiveRunStatus, io: 'output' },
  RunState: { schema: RunState, io: 'output' },
  Pricing: { schema: Pricing, io: 'output' },
  FileRequirements: { schema: FileRequirements, io: 'output' },
  CapabilityExecution: { schema: CapabilityExecution, io: 'output' },
  CapabilityRecord: { schema: CapabilityRecord, io: 'output' },
  CapabilitySummary: { schema: CapabilitySummary, io: 'output' },
  ListCapabilitiesResponse: { schema: ListCapabilitiesResponse, io: 'output' },
  DescribeCapabilityResponse: { schema: DescribeCapabilityResponse, io: 'output' },
  WhoAmIResponse: { schema: WhoAmIResponse, io: 'output' },
  BalanceResponse: { schema: BalanceResponse, io: 'output' },
  HealthResponse: { schema: HealthResponse, io: 'output' },
  ReadinessResponse: { schema: ReadinessResponse, io: 'output' },
  CrtInput: { schema: CrtInput, io: 'input' },
  CrtRunRequest: { schema: CrtRunRequest, io: 'input' },
  CrtObservation: { schema: CrtObservation, io: 'output' },
  CrtResult: { schema: CrtResult, io: 'output' },
  CrtCompletedRunResponse: { schema: CrtCompletedRunResponse, io: 'output' },
  CrtReplayRunResponse: { schema: CrtReplayRunResponse, io: 'output' },
  PriceDetail: { schema: PriceDetail, io: 'output' },
  WalletClearance: { schema: WalletClearance, io: 'output' },
  QuoteExecution: { schema: QuoteExecution, io: 'output' },
  Quote: { schema: Quote, io: 'output' },
  QuoteRequest: { schema: QuoteRequest, io: 'input' },
  QuoteResponse: { schema: QuoteResponse, io: 'output' },
  RunError: { schema: RunError, io: 'output' },
  RunRecord: { schema: RunRecord, io: 'output' },
  RunStatusResponse: { schema: RunStatusResponse, io: 'output' },
  RunRequest: { schema: RunRequest, io: 'input' },
  RunStartResponse: { schema: RunStartResponse, io: 'output' },
  RunSummary: { schema: RunSummary, io: 'output' },
  ListRunsResponse: { schema: ListRunsResponse, io: 'output' },
  LedgerLine: { schema: LedgerLine, io: 'output' },
  RunLedger: { schema: RunLedger, io: 'output' },
  RunReceiptResponse: { schema: RunReceiptResponse, io: 'output' },
  UsageLine: { schema: UsageLine, io: 'output' },
  CapabilityUsage: { schema: CapabilityUsage, io: 'output' },
  UsageStatementResponse: { schema: UsageStatementResponse, io: 'output' },
  SpendDiagnosticsResponse: { schema: SpendDiagnosticsResponse, io: 'output' },
  UploadSessionInput: { schema: UploadSessionInput, io: 'input' },
  UploadSessionRequest: { schema: UploadSessionRequest, io: 'input' },
  UploadStatus: { schema: UploadStatus, io: 'output' },
  FileFacts: { schema: FileFacts, io: 'output' },
  UploadRecord: { schema: UploadRecord, io: 'output' },
  UploadSessionResponse: { schema: UploadSessionResponse, io: 'output' },
  UploadResponse: { schema: UploadResponse, io: 'output' },
  Artifact: { schema: Artifact, io: 'output' },
  ArtifactManifestResponse: { schema: ArtifactManifestResponse, io: 'output' },
};
