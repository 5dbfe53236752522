import { pipeline } from 'node:stream';
import { isAppError } from '@svc/errors';
import type { NextFunction, Request } from 'express';
import { clientGoneSignal } from './client-gone';
import type { EdgeResponse } from './locals';
import { callUpstream, forwardedHeaders, type UpstreamTarget } from './upstream';

/**
 * The internal route of an upstream that renders its own error pages (the dashboard): `GET
 * /internal/error-page?status=<4xx|5xx>&message=<text>` answers that status with the page. Internal:
 * a reverse proxy forwards only its own mount (`/dashboard…`), never this path.
 */
export const ERROR_PAGE_PATH = '/internal/error-page';

/** The longest message carried (the refusals' own texts are one sentence). */
export const MAX_ERROR_PAGE_MESSAGE = 500;

/** Headers of the error page passed on (its own security headers replace the API's). */
const RELAYED = [
  'content-type',
  'content-length',
  'content-security-policy',
  'cache-control',
  'referrer-policy',
] as const;

/** The status and the words of a refusal this process raised; a 5xx keeps its words to the log. */
function refusalOf(err: unknown): { status: number; message: string } {
  if (isAppError(err) && err.status >= 400 && err.status <= 599) {
    return { status: err.status, message: err.status < 500 ? err.message : '' };
  }
  return { status: 500, message: '' };
}

/**
 * An error handler for a proxied mount (the gateway's `/dashboard`): what this process refuses
 * before the request reaches the upstream (a spent rate-limit budget 429, an unsafe path 422) is
 * answered with the upstream's own error page for that status and message (its HTML, CSP and
 * cache headers), as if it had refused the request itself; the headers already set here
 * (Retry-After, the request id) stay. The upstream unreachable or answering otherwise: the app's
 * own error handling (next), which answers JSON.
 */
export function upstreamErrorPage(target: UpstreamTarget) {
  return async (err: unknown, req: Request, res: EdgeResponse, next: NextFunction): Promise<void> => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const { status, message } = refusalOf(err);
    const query = new URLSearchParams({
      status: String(status),
      message: message.slice(0, MAX_ERROR_PAGE_MESSAGE),
    });
    try {
      const { response, abort } = await callUpstream(target, {
        method: 'GET',
        path: `${ERROR_PAGE_PATH}?${query.toString()}`,
        headers: forwardedHeaders(req, res, []),
        signal: clientGoneSignal(res),
      });
      if (response.statusCode !== status) {
        abort();
        next(err);
        return;
      }
      if (status >= 500 && !(isAppError(err) && err.status === 503)) {
        res.locals.failure = err instanceof Error ? err : new Error(String(err));
      }
      res.status(status);
      for (const name of RELAYED) {
        const value = response.headers[name];
        if (value !== undefined) res.setHeader(name, value);
      }
      await new Promise<void>((resolve) => {
        pipeline(response, res, () => resolve());
      });
    } catch {
      next(err);
    }
  };
}
