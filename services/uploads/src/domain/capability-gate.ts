import { type CapabilityRecord, effectiveRunStatus, MachineRunStatus } from '@svc/contracts';
import { ConflictError } from '@svc/errors';

/**
 * 409 when the capability cannot be quoted or run (spec §2.1: describe_only, a missing or an unknown
 * machine_run_status): a session for it would make an upload nothing can use. Same wording as the
 * orchestrator's quote refusal (docs/decisions.md Q6), so a client sees one message for one cause.
 * When the registry's effective_status and the raw value disagree, the stricter wins.
 */
export function assertSessionAllowed(slug: string, record: Pick<CapabilityRecord, 'execution'>): void {
  const raw = record.execution.machine_run_status;
  const blocked =
    effectiveRunStatus(raw) === 'describe_only' || record.execution.effective_status === 'describe_only';
  if (!blocked) return;
  const known = MachineRunStatus.safeParse(raw).success;
  const mode =
    raw === ''
      ? 'is not published and is treated as describe_only'
      : known
        ? 'is describe_only'
        : `${JSON.stringify(raw)} is not recognised and is treated as describe_only`;
  throw new ConflictError(
    `capability ${slug} cannot be quoted or run: its execution mode ${mode} (spec §2.1)`,
  );
}
