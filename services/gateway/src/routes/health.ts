import type { HealthResponse, ReadinessResponse } from '@svc/contracts';
import { Router } from 'express';
import { defineRoute } from '../middleware/method-not-allowed';

export interface HealthOptions {
  readonly service: string;
  /** ms since the epoch when the process started (for `uptime_s`). */
  readonly startedAt: number;
  /** Runs the dependency checks (each with its own timeout) and reports them, with the backing services. */
  readonly readiness: () => Promise<ReadinessResponse>;
  readonly now?: () => number;
}

/**
 * /healthz (liveness: the process answers, nothing else is checked, so a Redis blip never gets the
 * gateway restarted) and /readyz (readiness: Redis and the auth database answer; 503 otherwise, so
 * a load balancer stops sending traffic). /readyz also lists the backing services and whether each
 * is ready (`services`); one of them down leaves the gateway at 200, since every other operation
 * still works and another gateway would meet the same service down. Never cached.
 */
export function healthRouter(options: HealthOptions): Router {
  const now = options.now ?? Date.now;
  const router = Router();

  defineRoute(router, '/healthz', {
    get: [
      (_req, res) => {
        const body: HealthResponse = {
          ok: true,
          service: options.service,
          uptime_s: Math.max(0, (now() - options.startedAt) / 1000),
        };
        res.setHeader('Cache-Control', 'no-store');
        res.json(body);
      },
    ],
  });

  defineRoute(router, '/readyz', {
    get: [
      async (_req, res) => {
        const report = await options.readiness();
        res.setHeader('Cache-Control', 'no-store');
        res.status(report.ok ? 200 : 503).json(report);
      },
    ],
  });

  return router;
}
