import { z } from 'zod';
import type { SealedValue } from '../sealing';

/**
 * The two messages of the RPC transport, as JSON text in Redis:
 * - a request, LPUSHed by the caller on the service's request list (names.ts `rpcRequestListKey`);
 * - a reply, PUBLISHed by the responder on the caller's reply channel (`rpcReplyChannel`).
 * The client data travels sealed (sealing.ts). The plain fields route the message; a responder
 * acts on the sealed copies (see SealedRequest), so altering a plain field cannot redirect a reply
 * or extend a deadline. New fields must stay optional: a queued request must still parse.
 */

/** What the caller pushes. */
export interface RequestMessage {
  /** Unique per call: the reply carries it back, and the reply's sealing is bound to it. */
  id: string;
  method: string;
  /** epoch ms: when the caller stops waiting. Lets a responder drop a late request before opening it. */
  deadline: number;
  /** The caller's reply channel. */
  reply_to: string;
  /** A SealedRequest, sealed for `sealingContext.rpcRequest(prefix, queue, method)`. */
  request: SealedValue;
}

/** What is sealed inside a request: the copies a responder trusts. */
export interface SealedRequest {
  id: string;
  request: unknown;
  deadline: number;
  reply_to: string;
}

/** What the responder publishes: a RpcReply sealed for `sealingContext.rpcReply(…, method, id)`. */
export interface ReplyMessage {
  id: string;
  reply: SealedValue;
}

/** Bounds: a request list entry comes from anyone with access to Redis and is never trusted. */
const Id = z.string().min(1).max(128);
const Channel = z.string().min(1).max(512);

const RequestMessageSchema = z.object({
  id: Id,
  method: z.string().min(1).max(128),
  deadline: z.number(),
  reply_to: Channel,
  request: z.unknown(),
});

export const SealedRequestSchema = z.object({
  id: Id,
  request: z.unknown(),
  deadline: z.number(),
  reply_to: Channel,
});

const ReplyMessageSchema = z.object({ id: Id, reply: z.unknown() });

/** The request message in `text`, or undefined when it is not one (not JSON, fields missing). */
export function parseRequestMessage(
  text: string,
): (Omit<RequestMessage, 'request'> & { request: unknown }) | undefined {
  const parsed = RequestMessageSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}

/** The reply message in `text`, or undefined when it is not one. */
export function parseReplyMessage(text: string): { id: string; reply: unknown } | undefined {
  const parsed = ReplyMessageSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
