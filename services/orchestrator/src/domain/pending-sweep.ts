import { isAppError } from '@svc/errors';
import { confirmPendingRun, type PendingHoldDeps } from './pending-hold';

/** ms: default age of a pending run the dispatcher finishes: past the recording request's own try. */
export const PENDING_AFTER_MS = 5_000;
/** Pending runs finished per pass. */
const PENDING_BATCH = 50;

export interface PendingPassResult {
  confirmed: string[];
  /** Pending runs the wallet or upload service refused: deleted. */
  undone: string[];
}

/**
 * The dispatcher's pass over runs left pending (the recording request crashed, timed out or lost its
 * client): each is finished or undone exactly as its request would have (confirmPendingRun). Runs
 * younger than `olderThanMs` are left to their request. Stops at the first service that does not
 * answer (each further call would wait out its timeout too); the next pass tries again.
 */
export async function confirmPendingRuns(
  deps: PendingHoldDeps,
  olderThanMs = PENDING_AFTER_MS,
  now: Date = new Date(),
): Promise<PendingPassResult> {
  const rows = await deps.prisma.run.findMany({
    where: { holdPending: true, createdAt: { lt: new Date(now.getTime() - olderThanMs) } },
    orderBy: { createdAt: 'asc' },
    take: PENDING_BATCH,
  });
  const result: PendingPassResult = { confirmed: [], undone: [] };
  for (const row of rows) {
    try {
      await confirmPendingRun(deps, row);
      result.confirmed.push(row.id);
    } catch (err) {
      if (isAppError(err) && err.status < 500) {
        deps.logger.info({ run_id: row.id, err: err.message }, 'dispatcher: pending run refused; undone');
        result.undone.push(row.id);
        continue;
      }
      deps.logger.warn({ run_id: row.id, err }, 'dispatcher: pending run not confirmed; retrying next pass');
      break;
    }
  }
  return result;
}
