import { type Logger, REDACTED } from '@svc/log';
import type { NextFunction, Request } from 'express';
import type { EdgeResponse } from './locals';
import { resolveRequestId } from './request-id';

// Probes hit these every few seconds; a line per probe would drown the useful ones.
const QUIET_PATHS = new Set(['/healthz', '/readyz']);

// Query parameters whose value is a credential: an artifact link's `signature` lets the client it
// was signed for download the artifact until the link expires (decisions, Artifacts). Kept out of the
// log like keys and tokens (decisions S3); the rest of the URL stays for debugging.
const SECRET_QUERY_NAMES = new Set(['signature']);

/** A query parameter's name as the query parser reads it (`%73ignature` is `signature`). */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** The URL as logged: `signature=` values replaced (API keys and upload tokens are scrubbed by @svc/log). */
export function loggedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  // By the decoded name: express's query parser decodes names, so a percent-encoded `signature`
  // works as a link and must not slip past a match on the raw text.
  const query = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals === -1 || !SECRET_QUERY_NAMES.has(decodedName(part.slice(0, equals)))) return part;
      return `${part.slice(0, equals + 1)}${REDACTED}`;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/**
 * 4xx are the client's business (the body tells them): info. 503/504 mean a backing service is down
 * or slow, expected and transient: warn. A client that hung up before the answer was complete is
 * the client's doing, not a failure of ours: warn (as the uploads service logs it; an alert on
 * errors must not fire because clients leave). Any other 5xx, or a failure recorded by a handler
 * (`res.locals.failure`, also when the client then left), is ours: error.
 */
function logLevelFor(
  status: number,
  failure: Error | undefined,
  aborted: boolean,
): 'info' | 'warn' | 'error' {
  if (status === 503 || status === 504) return 'warn';
  if (failure !== undefined || status >= 500) return 'error';
  return aborted ? 'warn' : 'info';
}

/**
 * One JSON line per finished request through the shared service logger:
 * `{request_id, req: {method, url}, res: {statusCode}, duration_ms, err?}` with "request completed"
 * or "request failed with <status>". Only method and URL are recorded, never headers: the
 * Authorization header carries the API key (spec §5.2); @svc/log also scrubs key-shaped strings from
 * every line (e.g. a key a client put in the URL).
 *
 * Hand-written rather than pino-http on purpose: pino-http makes two child loggers per request
 * (binding and redacting the request each time) whether or not anything is logged, which measured
 * ~15% of the gateway's CPU on cached reads (docs/performance.md). Here the completion line is built
 * only when its level is enabled, and `res.locals.log` (a child bound to `request_id`, for handlers
 * that log) is made on first use.
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: EdgeResponse, next: NextFunction): void => {
    const startedAt = performance.now();
    // request-id.ts runs first and sets it; this covers an app assembled without it.
    const requestId = res.locals.requestId ?? resolveRequestId(req.headers['x-request-id']);
    let child: Logger | undefined;
    Object.defineProperty(res.locals, 'log', {
      configurable: true,
      enumerable: false,
      get: () => {
        child ??= logger.child({ request_id: requestId });
        return child;
      },
    });
    if (QUIET_PATHS.has(req.path)) {
      next();
      return;
    }
    const done = (): void => {
      res.off('finish', done);
      res.off('close', done);
      // 'close' before 'finish': the client went away before the response was complete.
      const aborted = !res.writableFinished;
      const failure = res.locals.failure;
      const status = res.statusCode;
      const level = logLevelFor(status, failure, aborted);
      if (!logger.isLevelEnabled(level)) return;
      const line = {
        request_id: requestId,
        req: { method: req.method, url: loggedUrl(req.originalUrl) },
        res: { statusCode: status },
        duration_ms: Math.round(performance.now() - startedAt),
      };
      if (failure !== undefined || status >= 500) {
        logger[level](
          { ...line, err: failure ?? new Error(`failed with status code ${status}`) },
          `request failed with ${status}`,
        );
      } else if (aborted) {
        logger[level](line, 'request aborted before the response was complete');
      } else {
        logger[level](line, 'request completed');
      }
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
