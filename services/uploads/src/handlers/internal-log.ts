import { randomUUID } from 'node:crypto';
import type { Logger } from '@svc/log';
import type { NextFunction, Request, Response } from 'express';

// An incoming id (the gateway forwards its own) is reused only when it is harmless in logs and headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: Request): string {
  const value = req.headers['x-request-id'];
  const id = Array.isArray(value) ? value[0] : value;
  return id !== undefined && SANE_REQUEST_ID.test(id) ? id : randomUUID();
}

/**
 * One line per internal request: `{request_id, req: {method, path}, res: {statusCode}, duration_ms}`.
 * Never headers (Authorization carries the upload token, spec §5.4) and never the query string (it
 * carries a download link's signature); @svc/log scrubs `upl_…` from every line as a second guard.
 * 4xx at info, 503 at warn, other 5xx and broken connections at error (as the gateway's log).
 */
export function internalRequestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const startedAt = performance.now();
    const requestId = requestIdOf(req);
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const done = (): void => {
      res.off('finish', done);
      res.off('close', done);
      const aborted = !res.writableFinished;
      const status = res.statusCode;
      const line = {
        request_id: requestId,
        req: { method: req.method, path: req.path },
        res: { statusCode: status },
        duration_ms: Math.round(performance.now() - startedAt),
      };
      if (aborted) logger.warn(line, 'request aborted before the response was complete');
      else if (status === 503) logger.warn(line, `request failed with ${status}`);
      else if (status >= 500) logger.error(line, `request failed with ${status}`);
      else logger.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
