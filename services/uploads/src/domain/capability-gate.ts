import {
  actionableRunStatus,
  blockedModeMessage,
  type CapabilityRecord,
  effectiveRunStatus,
} from '@svc/contracts';
import { ConflictError } from '@svc/errors';

/**
 * 409 when the capability cannot be quoted or run (spec §2.1: describe_only, a missing or an unknown
 * machine_run_status): a session for it would make an upload nothing can use. The orchestrator's
 * wording for the same cause (docs/decisions.md Q6, U1), from the contracts.
 */
export function assertSessionAllowed(slug: string, record: Pick<CapabilityRecord, 'execution'>): void {
  if (actionableRunStatus(record.execution) !== 'describe_only') return;
  const raw = record.execution.machine_run_status;
  // A known raw value other than describe_only that still ended here: the registry said describe_only.
  throw new ConflictError(
    blockedModeMessage(slug, effectiveRunStatus(raw) === 'describe_only' ? raw : 'describe_only'),
  );
}
