import { type AppError, deserializeError, serializeError, type WireError } from '@svc/errors';
import { z } from 'zod';

/**
 * What every RPC job completes with. Domain errors (404, 409, …) travel as `{ok: false}` values,
 * not as failed jobs: a failed job means the transport broke, and BullMQ would keep it as a failure.
 */
export type RpcReply = { ok: true; data: unknown } | { ok: false; error: WireError };

const ReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.unknown() }),
]);

export function okReply(data: unknown): RpcReply {
  return { ok: true, data };
}

export function errorReply(error: AppError): RpcReply {
  return { ok: false, error: serializeError(error) };
}

/** The reply as the caller sees it (remote errors rebuilt as AppErrors), or undefined if malformed. */
export function decodeReply(
  raw: unknown,
): { ok: true; data: unknown } | { ok: false; error: AppError } | undefined {
  const reply = ReplySchema.safeParse(raw);
  if (!reply.success) return undefined;
  if (reply.data.ok) return { ok: true, data: reply.data.data };
  return { ok: false, error: deserializeError(reply.data.error) };
}
