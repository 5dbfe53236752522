import { createMetricsRegistry } from '@svc/service-kit';
import { createRequestMetrics } from './metrics';

describe('createRequestMetrics', () => {
  it('adds http_request_duration_seconds{route,method,status} to the health server registry', async () => {
    const registry = createMetricsRegistry('gateway');
    const observe = createRequestMetrics(registry);
    observe({ route: '/api/capabilities/:slug', method: 'GET', status: 200, durationSeconds: 0.003 });
    observe({ route: '/api/capabilities/:slug', method: 'GET', status: 200, durationSeconds: 0.2 });
    const text = await registry.metrics();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/capabilities\/:slug"[^}]*method="GET"[^}]*status="200"[^}]*\} 2/,
    );
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.005",[^}]*\} 1/);
  });
});
