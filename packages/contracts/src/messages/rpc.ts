import { z } from 'zod';
import { BalanceResponse } from '../account';
import { Artifact } from '../artifacts';
import {
  DescribeCapabilityResponse,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
} from '../capability-api';
import { Slug, Uuid } from '../common';
import {
  RunLedger,
  RunReceiptResponse,
  SpendDiagnosticsResponse,
  UsageStatementQuery,
  UsageStatementResponse,
} from '../ledger';
import { Quote } from '../quote';
import { RunRecord } from '../run';
import {
  ListRunsQuery,
  ListRunsResponse,
  RunCountsRequest,
  RunCountsResponse,
  RunTimelineRequest,
  RunTimelineResponse,
} from '../run-list';
import { UploadId, UploadRecord } from '../uploads';
import {
  CreateExtractionRpc,
  DeleteVaultFieldResponse,
  DeleteVaultFieldRpc,
  ExtractionResponse,
  FillDocumentResponse,
  FillDocumentRpc,
  GetExtractionRpc,
  GetVaultDocumentRpc,
  ListExtractionsResponse,
  ListExtractionsRpc,
  ListVaultDocumentsResponse,
  ListVaultDocumentsRpc,
  ListVaultFieldsResponse,
  ReviewExtractionResponse,
  ReviewExtractionRpc,
  SaveVaultFieldResponse,
  SaveVaultFieldRpc,
  VaultAuditResponse,
  VaultAuditRpc,
  VaultClientRequest,
  VaultProfileResponse,
  VaultRotationState,
} from '../vault';
import {
  ClientKeysRequest,
  CreateClientKeyRequest,
  CreateClientKeyResponse,
  DescribeClientResponse,
  ListClientKeysResponse,
  RevokeClientKeyRequest,
  RevokeClientKeyResponse,
} from './api-keys';
import {
  CancelRunResult,
  CreateUploadSessionRequest,
  CreateUploadSessionResponse,
  DailySpendRequest,
  DailySpendResponse,
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
} from './rpc-schemas';
import {
  ClaimAttemptRequest,
  ClaimAttemptResponse,
  ReportRunResponse,
  RunReport,
  SettleRunRequest,
  SettleRunResponse,
} from './run-attempts';

/**
 * Every RPC method, keyed by service then method: `rpc.<service>` queues carry jobs named after the
 * method. Request and response schemas are the wire contract between a gateway and a service that
 * may be deployed at another version: evolve them additively (new fields optional), never rename.
 */

/** One method: what the caller sends and what the service answers (`data` of an ok envelope). */
export interface RpcMethod<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  request: Req;
  response: Res;
  /** One line for docs/architecture.md's RPC table (tools/docs-gen). */
  description: string;
}

/** `ping`, answered by `serveRpc` itself for every service: proves a responder is consuming the queue. */
export const PingRequest = z.object({});
export const PingResponse = z.object({
  service: z.string(),
  pid: z.number().int(),
  /** s: process uptime of the answering replica. */
  uptime_s: z.number().nonnegative(),
});
export type PingResponse = z.infer<typeof PingResponse>;

const ping = {
  request: PingRequest,
  response: PingResponse,
  description: 'Answered by serveRpc itself: proves a responder consumes the queue.',
} satisfies RpcMethod;

export const rpcCatalog = {
  registry: {
    ping,
    search: {
      request: ListCapabilitiesQuery,
      response: ListCapabilitiesResponse,
      description: 'Capabilities matching a full-text query and category, paged.',
    },
    describe: {
      request: z.object({ slug: Slug }),
      response: DescribeCapabilityResponse,
      description: 'One capability: its record and input schema (404 for an unknown slug).',
    },
  },
  wallet: {
    ping,
    balance: {
      request: z.object({ client_id: Uuid }),
      response: BalanceResponse,
      description: "The client's balance, held amount and spend cap.",
    },
    issueQuote: {
      request: IssueQuoteRequest,
      response: Quote,
      description:
        "Stores a quote with its price and clearance (idempotent on quote_id; 409 for another client's).",
    },
    holdForRun: {
      request: HoldForRunRequest,
      response: HoldForRunResponse,
      description:
        "Checks the quote and holds its price under the client's lock (402 when it no longer fits).",
    },
    /** The ledger lines of one run of `client_id` (empty for a free or unknown run). */
    runLedger: {
      request: z.object({ client_id: Uuid, run_id: Uuid }),
      response: RunLedger,
      description: 'The ledger lines of one run of the client (empty for a free or unknown run).',
    },
    usageStatement: {
      request: UsageStatementQuery.extend({ client_id: Uuid }),
      response: UsageStatementResponse,
      description: "The client's ledger lines over a period, paged.",
    },
    spendDiagnostics: {
      request: z.object({ client_id: Uuid }),
      response: SpendDiagnosticsResponse,
      description: "The client's balance, cap, holds and month's spend: why a run would be refused.",
    },
    dailySpend: {
      request: DailySpendRequest,
      response: DailySpendResponse,
      description: "The client's charged runs per UTC day over the last N days (at most 90), oldest first.",
    },
    openHolds: {
      request: OpenHoldsRequest,
      response: OpenHoldsResponse,
      description:
        'Holds neither captured nor released, older than a time (orchestrator reconciler); keyset-paged.',
    },
    /** Idempotent: one capture or release per run, whatever the number of calls. */
    settle: {
      request: SettleRunRequest,
      response: SettleRunResponse,
      description:
        "Captures (completed) or releases a paid final run's hold, once; a repeated call applies nothing.",
    },
  },
  orchestrator: {
    ping,
    startCrtRun: {
      request: StartCrtRunRequest,
      response: StartRunResponse,
      description:
        'Records a crt run (or finds the one its Idempotency-Key names) and queues it; answers once queued.',
    },
    /** The run if `client_id` owns it; otherwise 404, the same as for a run that does not exist. */
    getRun: {
      request: z.object({ client_id: Uuid, run_id: Uuid }),
      response: RunRecord,
      description: 'The run if the client owns it; 404 otherwise, as for an unknown run.',
    },
    listRuns: {
      request: ListRunsQuery.extend({ client_id: Uuid }),
      response: ListRunsResponse,
      description:
        "The client's runs, newest first, filtered by state, capability and creation time; keyset-paged by an opaque cursor.",
    },
    runCounts: {
      request: RunCountsRequest,
      response: RunCountsResponse,
      description: "The client's runs per state (optionally only those recorded since a time).",
    },
    runTimeline: {
      request: RunTimelineRequest,
      response: RunTimelineResponse,
      description: "The state history of one of the client's runs, from its row's timestamps; 404 as getRun.",
    },
    quote: {
      request: QuoteCapabilityRequest,
      response: Quote,
      description:
        'Describes the capability, checks mode and input, prices it and has the wallet issue the quote.',
    },
    startRun: {
      request: StartRunRequest,
      response: StartRunResponse,
      description: 'Records a run of any capability (the wallet holds a paid price first) and queues it.',
    },
    /** 404 as getRun; 409 when the run already finished. */
    cancelRun: {
      request: z.object({ client_id: Uuid, run_id: Uuid }),
      response: CancelRunResult,
      description: 'Cancels a queued run or asks a running one to stop; 409 when it already finished.',
    },
    /** The run (404 as getRun), its quote and its ledger lines (from the wallet). */
    receipt: {
      request: z.object({ client_id: Uuid, run_id: Uuid }),
      response: RunReceiptResponse,
      description: 'The run, its quote and its ledger lines (from the wallet).',
    },
    /** Worker → orchestrator before it runs a capability job: only the run's current job may run it. */
    claimAttempt: {
      request: ClaimAttemptRequest,
      response: ClaimAttemptResponse,
      description:
        "Worker, before running a job: moves the run to running (attempt + 1) if the job is the run's current one.",
    },
    /** Worker → orchestrator when an attempt ends; retried by the worker until answered. */
    reportRun: {
      request: RunReport,
      response: ReportRunResponse,
      description:
        'Worker, when an attempt ends (retrying, completed, failed, cancelled): applied once, committed before the answer.',
    },
  },
  uploads: {
    ping,
    createSession: {
      request: CreateUploadSessionRequest,
      response: CreateUploadSessionResponse,
      description:
        "Checks the file against the capability's requirements and stores the session with the token's hash.",
    },
    /** The upload if `client_id` owns it; 404 otherwise (same as unknown). */
    getUpload: {
      request: z.object({ client_id: Uuid, upload_id: UploadId }),
      response: UploadRecord,
      description: 'The upload if the client owns it; 404 otherwise.',
    },
    resolveFiles: {
      request: ResolveFilesRequest,
      response: ResolveFilesResponse,
      description: 'The uploads a quote or run names, checked; with run_id marked used by that run.',
    },
    registerArtifacts: {
      request: RegisterArtifactsRequest,
      response: z.object({ registered: z.number().int().min(0) }),
      description: "Stores a completed run's artifacts (idempotent per run and name).",
    },
    listArtifacts: {
      request: ListArtifactsRequest,
      response: z.object({ artifacts: z.array(Artifact) }),
      description: "A run's artifacts with download links signed for the client.",
    },
  },
  /** Gateway → vault (spec §4.15-4.20) and the admin CLI's rotation commands. */
  vault: {
    ping,
    profile: {
      request: VaultClientRequest,
      response: VaultProfileResponse,
      description: "The client's vault at a glance: counts, common fields present or missing, key version.",
    },
    listFields: {
      request: VaultClientRequest,
      response: ListVaultFieldsResponse,
      description: "The client's fields, masked.",
    },
    saveField: {
      request: SaveVaultFieldRpc,
      response: SaveVaultFieldResponse,
      description: 'Validates, encrypts and stores a field (create, or update at the expected version).',
    },
    deleteField: {
      request: DeleteVaultFieldRpc,
      response: DeleteVaultFieldResponse,
      description: 'Deletes a field with its data key.',
    },
    createExtraction: {
      request: CreateExtractionRpc,
      response: ExtractionResponse,
      description: 'Reads a document and stores its candidates, encrypted, as a pending extraction.',
    },
    listExtractions: {
      request: ListExtractionsRpc,
      response: ListExtractionsResponse,
      description: "The client's extractions, newest first, candidates masked.",
    },
    getExtraction: {
      request: GetExtractionRpc,
      response: ExtractionResponse,
      description: 'One extraction of the client; 404 for anyone else.',
    },
    reviewExtraction: {
      request: ReviewExtractionRpc,
      response: ReviewExtractionResponse,
      description: 'Applies approve/reject decisions at the expected version; approvals save fields.',
    },
    fillDocument: {
      request: FillDocumentRpc,
      response: FillDocumentResponse,
      description: 'Fills a template with the allowed fields into a private document artifact.',
    },
    listDocuments: {
      request: ListVaultDocumentsRpc,
      response: ListVaultDocumentsResponse,
      description: "The client's filled documents with fresh download links.",
    },
    getDocument: {
      request: GetVaultDocumentRpc,
      response: FillDocumentResponse,
      description: 'One filled document with a fresh download link; 404 for anyone else.',
    },
    audit: {
      request: VaultAuditRpc,
      response: VaultAuditResponse,
      description: "The client's audit trail of decryptions, newest first.",
    },
    rotationStatus: {
      request: z.object({}),
      response: VaultRotationState,
      description: 'Keyring versions, data keys per version and the re-wrap job (admin CLI).',
    },
    startRotation: {
      request: z.object({}),
      response: VaultRotationState,
      description: "Starts the re-wrap of every data key to the keyring's current version (admin CLI).",
    },
  },
  /**
   * Gateway → dashboard (issue 24): a client's API keys, served by the gateway process, which owns
   * the `auth` schema. Internal: no REST operation or MCP tool reaches it.
   */
  keys: {
    ping,
    describeClient: {
      request: ClientKeysRequest,
      response: DescribeClientResponse,
      description: "The client's name (404 for an unknown client): the dashboard's header.",
    },
    listKeys: {
      request: ClientKeysRequest,
      response: ListClientKeysResponse,
      description: "The client's keys, newest first, revoked and expired ones included; never a secret.",
    },
    createKey: {
      request: CreateClientKeyRequest,
      response: CreateClientKeyResponse,
      description: 'A new key for the client (422 for an unknown client or a past expiry), shown once.',
    },
    revokeKey: {
      request: RevokeClientKeyRequest,
      response: RevokeClientKeyResponse,
      description:
        "Revokes one of the client's keys and publishes apikey.revoked; false for another client's key.",
    },
  },
} as const satisfies Record<string, Record<string, RpcMethod> & { ping: RpcMethod }>;

export type RpcCatalog = typeof rpcCatalog;
/** A service that answers RPC (`keys` is answered by the gateway process). */
export type RpcService = keyof RpcCatalog;
export type RpcMethodName<S extends RpcService> = keyof RpcCatalog[S] & string;

type MethodOf<S extends RpcService, M extends RpcMethodName<S>> = RpcCatalog[S][M] extends RpcMethod
  ? RpcCatalog[S][M]
  : never;

/** What a caller passes (schema input: defaults may be omitted). */
export type RpcRequestInput<S extends RpcService, M extends RpcMethodName<S>> = z.input<
  MethodOf<S, M>['request']
>;
/** What a handler receives (parsed: defaults applied). */
export type RpcRequest<S extends RpcService, M extends RpcMethodName<S>> = z.output<
  MethodOf<S, M>['request']
>;
/** What a handler returns (schema input: the responder parses it before sending). */
export type RpcResponseInput<S extends RpcService, M extends RpcMethodName<S>> = z.input<
  MethodOf<S, M>['response']
>;
/** What a caller gets back (parsed). */
export type RpcResponse<S extends RpcService, M extends RpcMethodName<S>> = z.output<
  MethodOf<S, M>['response']
>;

export function isRpcService(name: string): name is RpcService {
  return Object.hasOwn(rpcCatalog, name);
}

/** Every service that answers RPC, e.g. for a launcher that pings them all. */
export const RPC_SERVICES: readonly RpcService[] = Object.keys(rpcCatalog).filter(isRpcService);

/**
 * The services whose handlers call other services (the orchestrator calls the wallet, the registry
 * and the uploads service; the uploads service the registry; the vault the uploads service). Their
 * callers wait NESTED_CALL_MARGIN_MS (@svc/bus) longer than RPC_TIMEOUT_MS, so that the 503 of a
 * service behind them reaches the caller naming that service (issue 15 finding 3; decisions TR3a).
 */
export const NESTED_RPC_SERVICES = [
  'orchestrator',
  'uploads',
  'vault',
] as const satisfies readonly RpcService[];

/** Whether `service`'s handlers call other services (NESTED_RPC_SERVICES). */
export function callsOtherServices(service: RpcService): boolean {
  return (NESTED_RPC_SERVICES as readonly RpcService[]).includes(service);
}
