/**
 * How a capability's runs use the worker that runs them, which decides how many of them one worker
 * process runs at once (issue 25 item 6). Each runnable capability declares its own
 * (`defineCapability({ workload })`); an operator overrides the number per capability with
 * WORKER_SLOTS, or for every queue with WORKER_CONCURRENCY, without code.
 *
 * - `io`: the run mostly waits on something else (crt on CT providers): many at once.
 * - `cpu`: the run computes on the worker's event loop (pii-redact, csv-profile, pdf-extract-text,
 *   image-thumbnail): two per core. Each run also waits on its claim and report round trips, during
 *   which the core would idle with one: measured on pii-redact, 2 slots on 2 cores left runs
 *   finishing 5.4 s after their start (p50) under load, 4 slots 2.3 s. More processes, not more
 *   slots, use more cores.
 * - `browser`: the run holds a browser context (html-to-pdf): each costs tens of MB and a renderer.
 */
export type Workload = 'io' | 'cpu' | 'browser';

export const WORKLOADS: readonly Workload[] = ['io', 'cpu', 'browser'];

/** Runs of an `io` capability one process has at once by default. */
export const IO_SLOTS = 64;
/** Runs of a `cpu` capability one process has at once per core by default. */
export const CPU_SLOTS_PER_CORE = 2;
/** Browser renders one process has at once by default. */
export const BROWSER_SLOTS = 2;

/** The default slots of a workload on a machine of `cores` cores (os.availableParallelism()). */
export function defaultSlots(workload: Workload, cores: number): number {
  switch (workload) {
    case 'io':
      return IO_SLOTS;
    case 'cpu':
      return CPU_SLOTS_PER_CORE * Math.max(1, Math.floor(cores));
    case 'browser':
      return BROWSER_SLOTS;
  }
}
