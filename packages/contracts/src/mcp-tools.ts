import type { z } from 'zod';
import { CapabilitySlugParams } from './capability-api';
import { ClientType } from './common';
import type { McpToolName } from './mcp';
import { type OperationFacts, wrapsOperation } from './mcp-tool-operation';
import { apiOperation } from './openapi/document';
import type { RateLimitBudget } from './openapi/rate-limits';
import { UploadSessionInput } from './uploads';

/**
 * The nine MCP tools of spec §4 rule 6 as a contract: what `tools/list` shows (name, title,
 * description, the REST twin's scope, argument and result schemas, hints). Each names the REST
 * operation it wraps, and takes its scope, arguments, result and budget from it
 * (mcp-tool-operation.ts): only the agent-facing words are written here. The gateway's tools
 * (services/gateway/src/mcp/tools) add only their bodies; the contract manifest (tools/contract)
 * reads the same descriptors, so both come from here.
 */

/** MCP tool hints (the MCP `ToolAnnotations` without `title`, which the gateway adds). */
export interface McpToolHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * A tool: its words for the agent and, from its REST twin (OperationFacts), the operation it wraps,
 * its scope (decisions M2), its arguments (the twin's contract schemas, described for the agent),
 * its result (the twin's 200 body schema: `outputSchema`, and the check of `structuredContent`)
 * and its budget.
 */
export interface McpToolDescriptor<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject>
  extends OperationFacts<I, O> {
  readonly name: McpToolName;
  readonly title: string;
  readonly description: string;
  readonly annotations: McpToolHints;
}

/**
 * Descriptions the contracts do not carry, added to their own schemas (never a field restated):
 * every tool argument an agent sees has a `description`.
 */
export const McpSlugArg = CapabilitySlugParams.shape.slug.describe(
  'Capability slug (e.g. "crt", "pii-redact"), as listed by svc_capabilities_search.',
);

export const McpClientTypeArg = ClientType.default('api').describe(
  'Who is calling, for the run record (2-24 characters of A-Z a-z 0-9 _ -); default "api".',
);

/** Tools that only read: the same call gives the same answer and changes nothing (decisions M6). */
export const MCP_READ_ONLY: McpToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** `svc_capabilities_search` = GET /api/capabilities (spec §4.1). */
export const McpSearchTool = {
  name: 'svc_capabilities_search',
  title: 'Search capabilities',
  description:
    'Step 1 of search → describe → quote → run → status. Finds capabilities by natural-language ' +
    'text (`q`) and/or `category`, best match first. Each summary shows pricing and ' +
    '`execution.machine_run_status`; call svc_capability_describe before building any input.',
  ...wrapsOperation(apiOperation('listCapabilities')),
  annotations: MCP_READ_ONLY,
} satisfies McpToolDescriptor;

/** `svc_capability_describe` = GET /api/capabilities/{slug} (spec §4.2). */
export const McpDescribeTool = {
  name: 'svc_capability_describe',
  title: 'Describe a capability',
  description:
    'Step 2: the source of truth for a capability: `input_schema` (the JSON Schema of `input` for ' +
    'quote and run), pricing, file requirements and `capability.execution.machine_run_status`. ' +
    'Only `supported`, `requires_worker` and `plan_only` (and legacy `runnable`) can be quoted and run; ' +
    '`describe_only`, a missing or an unknown value is refused: do not quote or run those.',
  ...wrapsOperation(apiOperation('describeCapability'), { slug: McpSlugArg }),
  annotations: MCP_READ_ONLY,
} satisfies McpToolDescriptor;

/** `svc_account_balance` = GET /api/account/balance (spec §4.12). */
export const McpBalanceTool = {
  name: 'svc_account_balance',
  title: 'Account balance and spend cap',
  description:
    'The balance, held and spent amounts (USD decimal strings), the monthly spend cap and what remains. ' +
    'Wallet and spend-cap failures are hard stops: show the figures to the user instead of retrying.',
  // No arguments; any given are refused with a message naming them, so an agent's slip is visible.
  ...wrapsOperation(apiOperation('getBalance')),
  annotations: MCP_READ_ONLY,
} satisfies McpToolDescriptor;

/** `svc_tool_quote` = POST /api/capabilities/{slug}/quote (spec §4.3). */
export const McpQuoteTool = {
  name: 'svc_tool_quote',
  title: 'Quote a capability run',
  description:
    'Step 3: prices `input` (built from the describe `input_schema`) and checks it against the balance ' +
    'and spend cap. Paid runs need a quote made just before the run: pass `quote.quote_id` and exactly ' +
    'the same input to svc_tool_run (a quote is valid 15 minutes and starts one run). Capabilities whose ' +
    'machine_run_status is describe_only, missing or unknown are refused. Creates a quote record.',
  ...wrapsOperation(apiOperation('quoteCapability'), { slug: McpSlugArg, client_type: McpClientTypeArg }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} satisfies McpToolDescriptor;

const runCapability = apiOperation('runCapability');

/** `svc_tool_run` = POST /api/capabilities/{slug}/run (crt: POST /api/capabilities/crt/run). */
export const McpRunTool = {
  name: 'svc_tool_run',
  title: 'Run a capability',
  description:
    'Step 4: runs a capability with exactly the input that was quoted. Paid capabilities need `quote_id` ' +
    'from a svc_tool_quote made just before; free ones (crt) may omit it. describe_only, missing or ' +
    'unknown machine_run_status is refused. Pass your own `idempotency_key` per logical run; if none is ' +
    'given one is made up and returned in the answer. crt waits for its result; other runs return ' +
    'at once (queued), or, when the request carries a progressToken, wait (25 s by default) ' +
    'sending progress notifications. Then follow the run with svc_tool_status.',
  // crt runs through its own operation on REST (runCrt), with the same scope, budget and arguments.
  ...wrapsOperation(runCapability, {
    slug: McpSlugArg,
    client_type: McpClientTypeArg,
    // The Idempotency-Key header of the REST twin, as an argument.
    idempotency_key: runCapability.params.header.shape['idempotency-key'].describe(
      'The Idempotency-Key of this logical run (8-190 characters of A-Z a-z 0-9 . _ : -). The same key with ' +
        'the same request returns the original run instead of running again; reuse with another request ' +
        'is refused. When omitted, the tool makes one up ("mcp-<uuid>") and says which in its answer: ' +
        'pass that key again to retry safely.',
    ),
  }),
  // Not idempotentHint: the same arguments without idempotency_key start a new run each call (a new
  // made-up key); only a repeated key replays. A host must not retry it as if it were idempotent.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
} satisfies McpToolDescriptor;

/** `svc_tool_status` = GET /api/capability-runs/{run_id} (spec §4.8). */
export const McpStatusTool = {
  name: 'svc_tool_status',
  title: 'Run status',
  description:
    'Step 5: the run as it stands: status (queued, running, retrying, completed, failed, cancelled), ' +
    'result when completed, error when failed. Poll until the status is final; then list files with ' +
    'svc_tool_artifacts.',
  ...wrapsOperation(apiOperation('getRun')),
  annotations: MCP_READ_ONLY,
} satisfies McpToolDescriptor;

/** `svc_tool_cancel` = POST /api/capability-runs/{run_id}/cancel (spec §4.10). */
export const McpCancelTool = {
  name: 'svc_tool_cancel',
  title: 'Cancel a run',
  description:
    'Cancels a queued run at once; for a running run a cooperative cancellation is requested (it ends ' +
    'cancelled, or completed if it finished first). A finished run cannot be cancelled.',
  ...wrapsOperation(apiOperation('cancelRun')),
  // idempotentHint in MCP's sense (a repeat has no further effect), though a repeat is an error
  // result: REST answers 409 `run … is already cancelled`, and a running run keeps its first
  // cancel_requested_at.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} satisfies McpToolDescriptor;

/** `svc_tool_artifacts` = GET /api/capability-runs/{run_id}/artifacts (spec §4.9). */
export const McpArtifactsTool = {
  name: 'svc_tool_artifacts',
  title: 'List run artifacts',
  description:
    'The files a completed run produced, with size, SHA-256 and a short-lived download link ' +
    "(GET it with the same API key's Authorization header).",
  ...wrapsOperation(apiOperation('listRunArtifacts')),
  annotations: MCP_READ_ONLY,
} satisfies McpToolDescriptor;

const { shape: uploadShape } = UploadSessionInput;

/** `svc_upload_session_create` = POST /api/capabilities/{slug}/upload-session (spec §4.6). */
export const McpUploadSessionTool = {
  name: 'svc_upload_session_create',
  title: 'Create an upload session',
  description:
    'For capabilities that take files (describe `file_requirements`): opens a short-lived session and ' +
    'returns `upload_url` and a private single-use `upload_token`. PUT the raw bytes to upload_url with ' +
    '`Authorization: Bearer <upload_token>` and the returned headers, then quote and run with ' +
    '`upload_id` in the input. Never log or share the token.',
  ...wrapsOperation(apiOperation('createUploadSession'), {
    slug: McpSlugArg,
    client_type: McpClientTypeArg,
    input: UploadSessionInput.extend({
      filename: uploadShape.filename.describe(
        'The file name, with the extension of its type (e.g. "report.pdf").',
      ),
      content_type: uploadShape.content_type.describe(
        'Its MIME type; one the describe file_requirements accept.',
      ),
      size_bytes: uploadShape.size_bytes.describe(
        'Its exact size in bytes; within file_requirements.max_size_bytes.',
      ),
    }).describe('The file about to be uploaded.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} satisfies McpToolDescriptor;

/** The nine descriptors in the order an agent uses them (the order of MCP_TOOL_NAMES). */
export const MCP_TOOL_DESCRIPTORS: readonly McpToolDescriptor[] = [
  McpSearchTool,
  McpDescribeTool,
  McpBalanceTool,
  McpQuoteTool,
  McpRunTool,
  McpStatusTool,
  McpCancelTool,
  McpArtifactsTool,
  McpUploadSessionTool,
];

/** The budget of each MCP tool: the one its REST twin spends from (README "MCP" table). */
export const MCP_TOOL_BUDGETS: Readonly<Partial<Record<McpToolName, RateLimitBudget>>> = Object.fromEntries(
  MCP_TOOL_DESCRIPTORS.map((tool) => [tool.name, tool.budget]),
);
