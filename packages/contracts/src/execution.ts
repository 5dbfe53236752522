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

/**
 * The mode a service acts on for a published execution block: the registry's `effective_status`,
 * re-derived from the raw `machine_run_status` with the §2.1 rules; when the two disagree the stricter
 * wins (describe_only), so a registry of another version can never unlock a blocked capability.
 */
export function actionableRunStatus(execution: {
  machine_run_status: string;
  effective_status: EffectiveRunStatus;
}): EffectiveRunStatus {
  const derived = effectiveRunStatus(execution.machine_run_status);
  return execution.effective_status === 'describe_only' ? 'describe_only' : derived;
}

/**
 * The refusal of a capability that cannot be quoted, run or given files (docs/decisions.md Q6, U1): one
 * message for one cause, whichever service refuses. `rawStatus` is the published value ('' when
 * missing); an unknown value is named.
 */
export function blockedModeMessage(slug: string, rawStatus: string): string {
  const known = MachineRunStatus.safeParse(rawStatus).success;
  const mode =
    rawStatus === ''
      ? 'is not published and is treated as describe_only'
      : known
        ? 'is describe_only'
        : `${JSON.stringify(rawStatus)} is not recognised and is treated as describe_only`;
  return `capability ${slug} cannot be quoted or run: its execution mode ${mode} (spec §2.1)`;
}

/** Spec §3: run states. */
export const RUN_STATES = ['queued', 'running', 'retrying', 'completed', 'failed', 'cancelled'] as const;
export const RunState = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunState>;

/**
 * Which states a run may move to from each state (spec §3; docs/architecture.md "A run's states";
 * the orchestrator's claim and report rules, services/orchestrator/src/domain/transitions.ts): a
 * claim moves a queued or retrying run to running; a retrying report applies only from running;
 * completed, failed and cancelled apply from any non-final state (cancel of a queued run, a
 * cooperative cancel of a running one); a final state is never left. A re-claim of a running run
 * (a new attempt) stays running and is not listed. Published in the contract manifest.
 */
export const RUN_STATE_TRANSITIONS: Readonly<Record<RunState, readonly RunState[]>> = {
  queued: ['running', 'completed', 'failed', 'cancelled'],
  running: ['retrying', 'completed', 'failed', 'cancelled'],
  retrying: ['running', 'completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};
