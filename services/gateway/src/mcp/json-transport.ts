import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { Request } from 'express';

/**
 * The one JSON-RPC request of a POST /mcp that the fast path answers (mcp-router.ts), or undefined
 * for anything the SDK's transport must judge: a batch, a notification or response (202), a
 * message that is not JSON-RPC (400 -32700), an Accept header without both media types (406), an
 * unsupported MCP-Protocol-Version (400). For the request returned, the SDK transport in
 * JSON-response mode would do exactly what JsonResponseTransport does: hand it to the server and
 * answer 200 with its one response as `application/json`.
 */
export function plainJsonRpcRequest(req: Request, message: unknown): JSONRPCRequest | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  // Accept is a list: a substring test, as the SDK transport's own.
  const accept = req.headers.accept;
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return undefined;
  }
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && (Array.isArray(version) || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) {
    return undefined;
  }
  // The transport's own parse (it keeps what it parsed, not the raw object).
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (!parsed.success) return undefined;
  const request: JSONRPCMessage = parsed.data;
  return isJSONRPCRequest(request) ? request : undefined;
}

/**
 * A transport for one JSON-RPC request answered with one JSON body: what the SDK's
 * StreamableHTTPServerTransport does in stateless JSON-response mode, without its conversion of the
 * Node request and response to web Request/Response objects (Hono's adapter) and the per-request
 * maps, which were the largest part of an MCP call's cost (profile in docs/performance.md, issue 15).
 * Notifications the server sends while handling the request are dropped, as that transport drops
 * them in JSON-response mode (a client that wants them asks for progress and gets the SSE path).
 */
export class JsonResponseTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  private answered = false;
  private closed = false;

  constructor(private readonly respond: (response: JSONRPCMessage) => void) {}

  async start(): Promise<void> {}

  /** Delivers `request` to the server it is connected to (after `connect`). */
  deliver(request: JSONRPCRequest, headers: Request['headers']): void {
    this.onmessage?.(request, { requestInfo: { headers } });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.answered || this.closed) return;
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      this.answered = true;
      this.respond(message);
    }
  }

  /** Whether the response went out: the server then has nothing in flight to abort. */
  get hasAnswered(): boolean {
    return this.answered;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
