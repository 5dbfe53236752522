import type { Request } from 'express';

// ms: how long the rest of a refused streamed body is read and dropped before the connection is cut.
const BODY_LINGER_MS = 30_000;

/**
 * Stops forwarding a streamed request body and reads what is left of it, cutting the connection
 * after BODY_LINGER_MS: an answer given while the client is still sending (a malformed id, an early
 * refusal upstream, 503) then reaches it, where closing at once would make its next write fail
 * (EPIPE) and lose the answer already sent.
 */
export function drainBodyForAnswer(req: Request, ms: number = BODY_LINGER_MS): void {
  req.unpipe();
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), ms);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
}
