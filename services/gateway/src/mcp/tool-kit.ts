import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { type JsonSchemaIo, type McpToolName, type Scope, toJsonSchema } from '@svc/contracts';
import { assertSafeJson, ForbiddenError, toErrorResponse } from '@svc/errors';
import type { Logger } from '@svc/log';
import { z } from 'zod';
import { checkedBody } from '../domain/contract-body';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { RunWaiting } from '../domain/run-waiter';
import type { UploadsService } from '../domain/uploads-service';
import type { AuthContext } from '../locals';
import { insufficientScopeMessage } from '../middleware/auth';
import { parseRequest } from '../middleware/validate';
import type { CatalogReader, WalletReader } from '../ports';

/** The services the tools call: the same objects the REST routes get (decisions M4: no logic of their own). */
export interface McpServices {
  readonly catalog: CatalogReader;
  readonly wallet: WalletReader;
  readonly orchestrator: RunOrchestrator;
  readonly uploads: UploadsService;
  readonly runWaiter: RunWaiting;
  /** MCP_RUN_WAIT_MS: ms svc_tool_run waits for a run (decisions M5). */
  readonly runWaitMs: number;
}

/** One MCP request's view: who calls (the verified key), where links point, and its logger. */
export interface ToolContext {
  readonly services: McpServices;
  readonly auth: AuthContext;
  /** The public base of links (upload_url, download links); may throw 400 like the REST routes. */
  readonly baseUrl: () => string;
  readonly log: Logger;
}

/** The SDK's per-call extras: the abort signal, `_meta.progressToken`, sendNotification. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a tool's body returns: one line for the agent and the REST twin's 200 body. */
export interface ToolAnswer<B> {
  readonly summary: string;
  readonly body: B;
}

/** A tool as written in tools/*.ts: contract schemas, the REST twin's scope, and a body. */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  /** One of the nine names of spec §4 rule 6 (contracts MCP_TOOL_NAMES). */
  readonly name: McpToolName;
  readonly title: string;
  readonly description: string;
  /** The scope of the REST twin (decisions M2). */
  readonly scope: Scope;
  /** The arguments: contract schemas (never a shape restated), described for the agent. */
  readonly input: I;
  /** The REST twin's 200 body schema: `outputSchema`, and the check of `structuredContent`. */
  readonly output: O;
  readonly annotations: Omit<ToolAnnotations, 'title'>;
  /**
   * The body is a shared object that is never changed (the catalog cache's answer, served as is by
   * REST too): its contract check and JSON text are made once per object, not per call.
   */
  readonly sharedBody?: boolean;
  readonly call: (
    args: z.output<I>,
    context: ToolContext,
    extra: ToolExtra,
  ) => Promise<ToolAnswer<z.output<O>>>;
}

/**
 * `tools/call` as the SDK's CallToolRequestSchema but with `arguments` of any JSON type, for the
 * protocol layer's parse. With the SDK's own schema there, arguments that are not an object failed
 * that parse and were answered -32603 "Internal error" (an OpenAPI fuzz finding); past it, the SDK
 * server's own tools/call check answers them -32602 "Invalid params", as JSON-RPC says.
 */
export const ToolCallRequest = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ arguments: z.unknown().optional() }),
});

/** A tool ready to serve: its tools/list entry (built once) and its call. */
export interface McpTool {
  readonly definition: Tool;
  readonly call: (args: unknown, context: ToolContext, extra: ToolExtra) => Promise<CallToolResult>;
}

/**
 * A tool's JSON Schema in the dialect the MCP SDK writes and its clients' Ajv compiles (draft-07),
 * from the same zod-to-JSON-Schema conversion as the OpenAPI document.
 */
function toolSchema(schema: z.ZodObject, io: JsonSchemaIo): Tool['inputSchema'] {
  const json = toJsonSchema(schema, { io, target: 'draft-7' });
  if (json.type !== 'object') throw new Error('an MCP tool schema must be a JSON object schema');
  return { ...json, type: 'object' };
}

/**
 * The result of a tool that succeeded (decisions M4): `structuredContent` is the REST twin's 200
 * body exactly; `content` is a short line for the agent, then the same JSON for clients that read
 * only text.
 */
function toolResult(
  summary: string,
  body: Record<string, unknown>,
  text = JSON.stringify(body),
): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text },
    ],
    structuredContent: body,
  };
}

/** A body checked against its contract, and its JSON text. */
interface CheckedBody<B> {
  readonly body: B;
  readonly text: string;
}

/**
 * A tool body's failure with one more line for the agent after the REST message, e.g. the
 * idempotency key svc_tool_run made up, which the agent needs to retry safely. The result's first
 * text stays the REST message of `error`.
 */
export class NotedToolError extends Error {
  constructor(
    readonly error: unknown,
    readonly note: string,
  ) {
    super(note);
    this.name = 'NotedToolError';
  }
}

/**
 * A failed tool (decisions M4): `isError` with the message REST would put in its ErrorResponse
 * (`toErrorResponse`: an unexpected error is "internal error", logged here with its cause), then
 * the note of a NotedToolError.
 */
function toolError(thrown: unknown, tool: string, log: Logger): CallToolResult {
  const err = thrown instanceof NotedToolError ? thrown.error : thrown;
  const { status, body } = toErrorResponse(err);
  if (status >= 500) log.error({ err, tool, status }, 'MCP tool failed');
  const content: CallToolResult['content'] = [{ type: 'text', text: body.error }];
  if (thrown instanceof NotedToolError) content.push({ type: 'text', text: thrown.note });
  return { isError: true, content };
}

/**
 * Builds a tool from its spec. The JSON Schemas are made once here, not per request (the endpoint
 * is stateless: a server per POST, decisions M1). A call runs in the order of its REST twin: the
 * scope (the REST 403 message), the arguments' safe-input check, then the contract (the REST 422
 * messages, e.g. `run_id: must be a UUID`, rather than the SDK's wording), the body, then the
 * answer checked against the output contract (a mismatch is our bug: "internal error", logged).
 * Every failure is an `isError` result, never a protocol error, so the agent reads it and can
 * correct itself.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): McpTool {
  const definition: Tool = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: toolSchema(spec.input, 'input'),
    outputSchema: toolSchema(spec.output, 'output'),
    annotations: { title: spec.title, ...spec.annotations },
  };
  // sharedBody: answer object → its check and text (weak: dropped with the cache entry).
  const checkedOnce = new WeakMap<object, CheckedBody<z.output<O>>>();
  const check = (answerBody: z.output<O>): CheckedBody<z.output<O>> => {
    const known = spec.sharedBody === true ? checkedOnce.get(answerBody) : undefined;
    if (known !== undefined) return known;
    const body = checkedBody(spec.output, answerBody, `${spec.name} result`);
    const checked = { body, text: JSON.stringify(body) };
    if (spec.sharedBody === true) checkedOnce.set(answerBody, checked);
    return checked;
  };
  return {
    definition,
    call: async (args, context, extra) => {
      try {
        if (!context.auth.scopes.includes(spec.scope)) {
          throw new ForbiddenError(insufficientScopeMessage([spec.scope]));
        }
        // The REST routes' safe-input check (safe-input.ts), with the same 422 text:
        // `input.text: must not contain NUL characters`.
        assertSafeJson(args, { root: 'arguments' });
        const parsed = parseRequest(spec.input, args ?? {});
        const answer = await spec.call(parsed, context, extra);
        const { body, text } = check(answer.body);
        return toolResult(answer.summary, body, text);
      } catch (err) {
        return toolError(err, spec.name, context.log);
      }
    },
  };
}
