import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCRequest, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { API_VERSION, apiOperation, type ContractDeprecations } from '@svc/contracts';
import type { Logger } from '@svc/log';
import type { Request } from 'express';
import type { GatewayResponse } from '../locals';
import { mcpMessageBudget } from '../rate-limit/classify';
import { ADMIT_ALL, admitMcpMessages, type McpAdmission } from '../rate-limit/mcp-admission';
import type { GatewayRateLimiter } from '../rate-limit/rate-limiter';
import { rawRoute } from '../routing/route';
import { isJsonBody, readJsonRpcBody, wantsStream } from './json-rpc-body';
import { JsonResponseTransport, plainJsonRpcRequest } from './json-transport';
import { type McpOriginPolicy, mcpOriginGuard } from './origin-guard';
import { listedTools } from './tool-deprecations';
import { type McpServices, ToolCallRequest, type ToolContext } from './tool-kit';
import { findTool, MCP_TOOL_LIST } from './tools';

/** The 401 challenge's realm on /mcp (decisions M2). */
export const MCP_REALM = 'mcp';

export const MCP_SERVER_NAME = 'capability-service';

// Sent in the initialize result: the order of the flow and the hard rules, for the agent's context.
const INSTRUCTIONS =
  'Quote-first capability registry. Order: svc_capabilities_search → svc_capability_describe → ' +
  'svc_tool_quote → svc_tool_run → svc_tool_status (then svc_tool_artifacts for files). Always ' +
  'describe before building input; refuse capabilities whose machine_run_status is describe_only, ' +
  'missing or unknown. Quote immediately before a paid run and pass the quote_id with the same input. ' +
  'Files: svc_upload_session_create, PUT the bytes with the upload token, then use upload_id in the input.';

/**
 * One JSON Schema validator for every request's server. The SDK makes a new Ajv per McpServer when
 * none is given, which cost ~12% of the gateway's CPU per stateless request (`pnpm bench mcp`
 * profile); the validator only compiles and caches schemas (elicitation), nothing per client, so
 * sharing it keeps the rule that server and transport are never reused (NOTES "MCP").
 */
const SHARED_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

export interface McpRouteOptions extends McpOriginPolicy {
  readonly logger: Logger;
  readonly services: McpServices;
  /** Rate limits (README "Rate limits"): spent per JSON-RPC message; none when omitted (tests). */
  readonly rateLimiter?: GatewayRateLimiter | undefined;
  /** Checked deprecations (contract-headers.ts): deprecated tools say so in tools/list. */
  readonly deprecations?: ContractDeprecations | undefined;
}

/**
 * The request's MCP server: the SDK's McpServer as the container, with our own tools/list and
 * tools/call handlers on its protocol server instead of `registerTool`. Why: the tool list and its
 * JSON Schemas are made once at start-up rather than per stateless request, and a call validates
 * its arguments with the contracts so a bad one gets the REST 422 message (tool-kit.ts).
 */
function requestServer(context: ToolContext, admission: McpAdmission, tools: readonly Tool[]): McpServer {
  const mcp = new McpServer(
    { name: MCP_SERVER_NAME, version: API_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR,
    },
  );
  // McpServer merges `listChanged: true` over the option above (it expects registerTool, whose list
  // may change). Ours is fixed at start-up and a stateless server cannot notify anyway: say so.
  mcp.server.registerCapabilities({ tools: { listChanged: false } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools] }));
  // ToolCallRequest: arguments that are not an object are -32602, not -32603 (tool-kit.ts).
  mcp.server.setRequestHandler(ToolCallRequest, (request, extra) => {
    const tool = findTool(request.params.name);
    // An unknown tool is a protocol error (MCP "Tools" spec), not a tool result.
    if (tool === undefined)
      throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}`);
    // Over its budget: the REST 429 message as the tool's error result (decisions M4).
    const refusal = admission.take(mcpMessageBudget(request));
    if (refusal !== undefined) return { isError: true, content: [{ type: 'text', text: refusal }] };
    return tool.call(request.params.arguments, context, extra);
  });
  return mcp;
}

/**
 * Answers one plain JSON-RPC request (json-transport.ts) with its one JSON response, as the SDK
 * transport does in stateless JSON-response mode, minus its web Request/Response conversion. The
 * server is closed only if the client leaves before the answer (aborting the tool's work): after
 * it nothing is in flight, and closing would only build the SDK's "Connection closed" error.
 */
async function answerAsJson(
  server: McpServer,
  request: JSONRPCRequest,
  req: Request,
  res: GatewayResponse,
): Promise<void> {
  const transport = new JsonResponseTransport((response) => {
    const body = JSON.stringify(response);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  res.on('close', () => {
    if (!transport.hasAnswered) void transport.close();
  });
  await server.connect(transport);
  transport.deliver(request, req.headers);
}

/**
 * `POST /mcp` (spec §4.21, §4 rule 6): the streamable HTTP MCP endpoint, stateless (decisions M1):
 * every POST gets a new server and transport (`sessionIdGenerator: undefined`), closed with the
 * response. A reused stateless transport answers 500 and SDKs before 1.26 leaked answers between
 * clients that way (NOTES "MCP"). GET (standalone SSE stream) and DELETE (session end) need
 * sessions: 405 with `Allow`. A request that asks for progress (`_meta.progressToken`) is answered
 * as an SSE stream, so notifications reach it during a long svc_tool_run; any other as plain JSON,
 * which costs the gateway about a third less per call (`pnpm bench mcp`, docs/performance.md).
 *
 * Chain (from the operation, plus the guard): Host/Origin guard (403, before anything else: DNS
 * rebinding), the API key (401 with `WWW-Authenticate: Bearer realm="mcp"` before any JSON-RPC;
 * M2; a key that does not verify spends from its address's budget), the body read here
 * (json-rpc-body.ts), then the SDK's transport: everything past authentication answers in
 * JSON-RPC's shape (406, 415, 413 over 4 MiB, 400 with -32700 for malformed JSON; decisions M7).
 * Scopes are checked per tool. Rate limits are spent per JSON-RPC message once the body is read
 * (rate-limit/mcp-admission.ts): a tool call over its budget is an error result.
 */
export function mcpRoutes(options: McpRouteOptions) {
  const tools = listedTools(MCP_TOOL_LIST, options.deprecations ?? {});
  const mcp = rawRoute(
    apiOperation('mcp'),
    async ({ auth }, { req, res, baseUrl }) => {
      // Not JSON: no body is read, and the transport answers 415 itself.
      const message = isJsonBody(req) ? await readJsonRpcBody(req, res) : undefined;
      if (res.headersSent) return; // the body could not be read: answered already
      const admission = options.rateLimiter
        ? await admitMcpMessages(options.rateLimiter, res, auth, message)
        : ADMIT_ALL;
      const server = requestServer(
        { services: options.services, auth, baseUrl, log: res.locals.log ?? options.logger },
        admission,
        tools,
      );
      // The common case (one request, answered as JSON) skips the SDK's HTTP transport; anything
      // else (batches, notifications, progress streams, bad headers) goes through it as before.
      const plain = wantsStream(message) ? undefined : plainJsonRpcRequest(req, message);
      if (plain !== undefined) {
        await answerAsJson(server, plain, req, res);
        return;
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: !wantsStream(message),
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
    },
    { realm: MCP_REALM, before: [mcpOriginGuard(options)] },
  );
  return { mcp };
}
