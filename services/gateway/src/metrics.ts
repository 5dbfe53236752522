import { Histogram, type Registry } from '@svc/service-kit';
import type { RequestObserver } from './middleware/metrics';

// s: from a cache hit (sub-ms) through an RPC round trip (ms) to the RPC timeout (3 s by default).
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * `http_request_duration_seconds{route,method,status}` on the health server's registry (served at
 * /metrics on HEALTH_PORT). `route` is the template, never the raw path, so the series stay bounded.
 */
export function createRequestMetrics(registry: Registry): RequestObserver {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests to the public API, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return (sample) => {
    histogram.observe(
      { route: sample.route, method: sample.method, status: String(sample.status) },
      sample.durationSeconds,
    );
  };
}
