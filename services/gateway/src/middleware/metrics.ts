import type { GatewayHandler } from '../locals';

/** One finished HTTP request, as the duration histogram records it. */
export interface RequestSample {
  /** The route template (`/api/capabilities/:slug`), or `unmatched`: never the raw path (cardinality). */
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly durationSeconds: number;
}

export type RequestObserver = (sample: RequestSample) => void;

export const UNMATCHED_ROUTE = 'unmatched';

/** Times every request from its first middleware until the response is closed. */
export function observeRequests(observer: RequestObserver): GatewayHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // 'close' fires for finished and for aborted responses alike (Node ≥ 14), exactly once.
    res.once('close', () => {
      const durationSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      observer({
        route: res.locals.routeTemplate ?? UNMATCHED_ROUTE,
        method: req.method,
        status: res.statusCode,
        durationSeconds,
      });
    });
    next();
  };
}
