import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  requestBodyTooLargeMessage,
} from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import express, { type Request } from 'express';
import { z } from 'zod';
import type { GatewayResponse } from '../locals';

// The SDK transport's own limit (4 MiB), kept when we read the body first.
const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

// The code the SDK transport gives its HTTP-level errors (413, 406, 415); it has no name in ErrorCode.
const TRANSPORT_ERROR = -32000;

const readText = express.text({ type: () => true, limit: MAX_BODY_BYTES, defaultCharset: 'utf-8' });

/** A JSON-RPC error with no id, in the shape and statuses of the SDK transport's own (decisions M7). */
function sendJsonRpcError(res: GatewayResponse, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

// body-parser's errors carry the HTTP status they mean (413 too large, 415 bad charset, 400 aborted).
const ClientErrorStatus = z.object({ status: z.number().int().min(400).max(499) });

// A request that asks for progress notifications (MCP "Progress": `params._meta.progressToken`).
const ProgressRequested = z.object({
  params: z.object({ _meta: z.object({ progressToken: z.union([z.string(), z.number()]) }) }),
});

/**
 * A body that is read here: one the transport would parse, by the transport's own media-type test
 * (it answers 415 to any other itself).
 */
export function isJsonBody(req: Request): boolean {
  return isJsonContentType(req.headers['content-type'] ?? null);
}

/**
 * Reads and parses the JSON-RPC body before the transport is made, so the request can choose how it
 * is answered (mcp-router.ts: plain JSON unless progress was asked for). Failures are answered as
 * the transport would (413 over 4 MiB, 400 `-32700` for malformed JSON) and give `undefined`.
 */
export async function readJsonRpcBody(req: Request, res: GatewayResponse): Promise<unknown> {
  try {
    await new Promise<void>((resolve, reject) => {
      readText(req, res, (err?: unknown) => (err === undefined ? resolve() : reject(err)));
    });
  } catch (err) {
    // Answered already: a body too slow was cut with 408 (middleware/body-rate.ts).
    if (res.headersSent) return undefined;
    const status = ClientErrorStatus.safeParse(err).data?.status ?? 400;
    const message = status === 413 ? requestBodyTooLargeMessage(MAX_BODY_BYTES) : 'Bad request body';
    sendJsonRpcError(res, status, TRANSPORT_ERROR, message);
    return undefined;
  }
  const text: unknown = req.body;
  try {
    return JSON.parse(typeof text === 'string' ? text : '');
  } catch {
    sendJsonRpcError(res, 400, ErrorCode.ParseError, 'Parse error: Invalid JSON');
    return undefined;
  }
}

/**
 * Whether a message asks for progress (`params._meta.progressToken`): only then is the answer an
 * SSE stream, which can carry notifications before the response. A batch (not in 2025-11-25) keeps
 * the transport's default, SSE.
 */
export function wantsStream(message: unknown): boolean {
  return Array.isArray(message) || ProgressRequested.safeParse(message).success;
}
