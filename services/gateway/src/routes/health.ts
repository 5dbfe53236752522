import { apiOperation, type ReadinessResponse } from '@svc/contracts';
import { route } from '../routing/route';

export interface HealthOptions {
  readonly service: string;
  /** ms since the epoch when the process started (for `uptime_s`). */
  readonly startedAt: number;
  /** Runs the dependency checks (each with its own timeout) and reports them, with the backing services. */
  readonly readiness: () => Promise<ReadinessResponse>;
  readonly now?: () => number;
}

// Probes must never see a cached answer.
const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/**
 * /healthz (liveness: the process answers, nothing else is checked, so a Redis blip never gets the
 * gateway restarted) and /readyz (readiness: Redis and the auth database answer; 503 otherwise, so
 * a load balancer stops sending traffic). /readyz also lists the backing services and whether each
 * is ready (`services`); one of them down leaves the gateway at 200, since every other operation
 * still works and another gateway would meet the same service down. Never cached.
 */
export function healthRoutes(options: HealthOptions) {
  const now = options.now ?? Date.now;
  return {
    health: route(apiOperation('health'), () => ({
      status: 200,
      body: { ok: true, service: options.service, uptime_s: Math.max(0, (now() - options.startedAt) / 1000) },
      headers: NO_STORE,
    })),
    readiness: route(apiOperation('readiness'), async () => {
      const report = await options.readiness();
      return report.ok
        ? { status: 200, body: report, headers: NO_STORE }
        : { status: 503, body: report, headers: NO_STORE };
    }),
  };
}
