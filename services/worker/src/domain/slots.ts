import { defaultSlots, type Workload } from '@svc/capabilities';

/** What decides a capability's slots in one worker process (decisions RW4). */
export interface SlotSettings {
  /** WORKER_SLOTS: per capability, over everything else. */
  readonly perCapability: Readonly<Record<string, number>>;
  /** WORKER_CONCURRENCY when set: every capability queue, over the workload defaults. */
  readonly everyQueue: number | undefined;
  /** Cores of this machine (os.availableParallelism()), for `cpu` workloads. */
  readonly cores: number;
}

/** Runs of `slug` (of `workload`) this process runs at once. */
export function slotsFor(slug: string, workload: Workload, settings: SlotSettings): number {
  return settings.perCapability[slug] ?? settings.everyQueue ?? defaultSlots(workload, settings.cores);
}
