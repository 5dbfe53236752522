import { z } from 'zod';

/**
 * Spec §2.1: the published `machine_run_status` values. `runnable` is legacy and means `supported`.
 * The read side keeps the raw string (see CapabilityExecution); this enum is for values we author.
 */
export const MACHINE_RUN_STATUSES = [
  'supported',
  'requires_worker',
  'plan_only',
  'describe_only',
  'runnable',
] as const;
export const MachineRunStatus = z.enum(MACHINE_RUN_STATUSES);
export type MachineRunStatus = z.infer<typeof MachineRunStatus>;

/** What a client acts on once the §2.1 rules are applied (no legacy value, no unknown). */
export const EFFECTIVE_RUN_STATUSES = ['supported', 'requires_worker', 'plan_only', 'describe_only'] as const;
export const EffectiveRunStatus = z.enum(EFFECTIVE_RUN_STATUSES);
export type EffectiveRunStatus = z.infer<typeof EffectiveRunStatus>;

/**
 * Spec §2.1 rules: `runnable` (legacy) is treated as `supported`; a missing or unknown value (any
 * other string, any non-string, a different letter case) is treated as `describe_only`.
 */
export function effectiveRunStatus(raw: unknown): EffectiveRunStatus {
  if (raw === 'runnable') return 'supported';
  const parsed = EffectiveRunStatus.safeParse(raw);
  return parsed.success ? parsed.data : 'describe_only';
}

/** Spec §2.1: clients quote or run only supported, requires_worker and plan_only capabilities. */
export function canQuoteAndRun(status: EffectiveRunStatus): boolean {
  return status !== 'describe_only';
}

/** Spec §3: run states. */
export const RUN_STATES = ['queued', 'running', 'retrying', 'completed', 'failed', 'cancelled'] as const;
export const RunState = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunState>;
