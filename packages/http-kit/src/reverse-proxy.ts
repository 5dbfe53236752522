import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream';
import type { NextFunction, Request } from 'express';
import { clientGoneSignal } from './client-gone';
import type { EdgeResponse } from './locals';
import { ClientGoneError, callUpstream, type UpstreamTarget } from './upstream';

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), never passed on; and
 * `expect`, which Node's server has already answered (100 Continue).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/** What a proxy tells the upstream about the request: set by us alone, never passed on from the client. */
const FORWARDING = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-request-id']);

/** The names the `connection` header lists (hop-by-hop for this message too). */
function connectionTokens(headers: IncomingHttpHeaders): Set<string> {
  const value = headers.connection;
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    text
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ''),
  );
}

/**
 * The client's headers as the upstream gets them: hop-by-hop ones dropped, `Host` kept (the origin
 * the browser used, which the upstream's Origin check compares with), and X-Forwarded-For, -Proto
 * and -Host replaced by what this process made of the request (`req.ip`, `req.protocol`, `req.host`:
 * its TRUST_PROXY applied), so the upstream trusts this one hop and sees what this process saw. The
 * request id is ours, so both processes log the same one.
 */
export function proxiedRequestHeaders(req: Request, res: EdgeResponse): OutgoingHttpHeaders {
  const listed = connectionTokens(req.headers);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || FORWARDING.has(name) || listed.has(name)) continue;
    headers[name] = value;
  }
  headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  headers['x-forwarded-proto'] = req.protocol;
  if (req.host !== undefined) headers['x-forwarded-host'] = req.host;
  if (res.locals.requestId !== undefined) headers['x-request-id'] = res.locals.requestId;
  return headers;
}

/** A request that carries a body (as body-parser's `type-is.hasBody` decides). */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * A streaming reverse proxy to `target` (the gateway's `/dashboard`, served by the dashboard
 * process): the request goes as it came (method, path and query as the client sent them, headers as
 * above, the body streamed as it arrives) and the answer comes back as the upstream gave it (status,
 * headers but the hop-by-hop ones, the body streamed), so neither side holds a body in memory and
 * backpressure reaches the slower end. The upstream's answers take as long as its pages do (they
 * wait on RPCs with deadlines of their own): only the connection is bounded by `connectTimeoutMs`.
 * Unreachable: 503 to the app's error handlers (`<name> is unavailable`).
 */
export function reverseProxy(target: UpstreamTarget) {
  return async (req: Request, res: EdgeResponse, next: NextFunction): Promise<void> => {
    let exchange: Awaited<ReturnType<typeof callUpstream>>;
    try {
      exchange = await callUpstream(target, {
        method: req.method,
        path: req.originalUrl,
        headers: proxiedRequestHeaders(req, res),
        ...(hasBody(req) ? { body: req } : {}),
        signal: clientGoneSignal(res),
        answerWithinConnectTimeout: false,
      });
    } catch (err) {
      if (err instanceof ClientGoneError) return; // nobody to answer; the request log records the abort
      next(err);
      return;
    }
    const { response } = exchange;
    const listed = connectionTokens(response.headers);
    res.status(response.statusCode ?? 502);
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && !listed.has(name)) res.setHeader(name, value);
    }
    // pipeline destroys both sides on failure: a client that leaves stops the upstream, and an
    // upstream that breaks mid-answer cuts the client's connection. The cause goes on the log line.
    await new Promise<void>((resolve) => {
      pipeline(response, res, (err) => {
        if (err && !res.writableFinished) res.locals.failure = err;
        // A connection that carried a body is never reused (callUpstream kept it alive for the answer).
        exchange.abort();
        resolve();
      });
    });
  };
}
