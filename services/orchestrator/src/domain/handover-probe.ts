import type { CapabilityJobName } from '@svc/capabilities';

/** A capability job as Redis knows it: its queue and id. */
export interface JobRef {
  name: CapabilityJobName;
  jobId: string;
}

/**
 * What the dispatcher asks Redis (adapters/capability-queue.ts); all throw when Redis is down. A pass
 * calls jobsAlive and runsHeld together, so they share one round trip.
 */
export interface HandOverProbe {
  /** Per job, in order: true while it exists and has not finished (waiting, delayed, active). */
  jobsAlive(jobs: readonly JobRef[]): Promise<boolean[]>;
  /**
   * Per run id, in order: true while a live worker announces it holds the run (heldRunsKey: claimed,
   * computing or holding its result until the report is acknowledged).
   */
  runsHeld(runIds: readonly string[]): Promise<boolean[]>;
  /** Redis's `run_id` (INFO server): new at every Redis start. */
  serverRunId(): Promise<string>;
}
