import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A Prometheus registry with the process's default metrics (CPU, memory, event-loop lag, GC) and a
 * `service` label on every series. Services register their own counters/histograms on it
 * (`new Counter({ ..., registers: [registry] })`); `/metrics` serves it.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
