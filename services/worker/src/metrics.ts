import { Counter, Histogram, type Registry } from '@svc/service-kit';
import type { RunObserver } from './handlers/capability-job';

// s: from a pure in-memory job (ms) through a provider call (s) to a slow render (30 s budget).
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Per-capability job metrics on the health server's registry (/metrics on HEALTH_PORT), for
 * operators sizing worker pools: `worker_capability_runs_total{job,outcome}` and
 * `worker_capability_run_duration_seconds{job,outcome}`. `outcome` is completed, failed, cancelled,
 * skipped (its claim was refused: final, cancelled, superseded or unknown run) or retrying (the
 * attempt threw; BullMQ retries it).
 */
export function createRunMetrics(registry: Registry): RunObserver {
  const runs = new Counter({
    name: 'worker_capability_runs_total',
    help: 'Capability job attempts handled by this worker, by job and outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'worker_capability_run_duration_seconds',
    help: 'Time one capability job attempt took on this worker, reports included, by job and outcome.',
    labelNames: ['job', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return (sample) => {
    const labels = { job: sample.job, outcome: sample.outcome };
    runs.inc(labels);
    duration.observe(labels, sample.seconds);
  };
}
