import type { EventPayloadInput } from '@svc/contracts';
import type { Logger } from '@svc/log';
import { type RunRecordRow, toRunRecord } from './run-record';
import { type SettleDeps, settleFinalRun, settlementFor } from './settlement';

/**
 * bytes: the largest RunRecord (JSON, UTF-8) that rides on `run.finished`. Redis sends every event
 * to every gateway replica, and each one parses it whether or not a request of its own waits on the
 * run, so a large record costs every replica. A crt record with the default limit (100 hostnames)
 * is about 10 KiB; limit 1,000 with long names can reach ~300 KiB. Above this size the event names
 * the run only, and the one gateway that waits on it loads it with `getRun` (one RPC, as before).
 */
export const MAX_EVENT_RUN_BYTES = 64 * 1024;

/** A stored run with its owner (what `run.finished` is made of), its hand-over and its settlement state. */
export interface StoredRun extends RunRecordRow {
  readonly clientId: string;
  /** The current hand-over's BullMQ job id (`run-<id>-<n>`); null while none was made. */
  readonly jobId: string | null;
  /** When the wallet confirmed the settlement of a paid final run; null = not yet (settlement.ts). */
  readonly settledAt: Date | null;
}

export type RunFinishedEvent = EventPayloadInput<'run.finished'>;

/**
 * The `run.finished` of a final run: its id, state and owner, plus the RunRecord `getRun` would
 * return for it when that fits in MAX_EVENT_RUN_BYTES (the gateway then answers without a getRun).
 */
export function runFinishedEvent(row: StoredRun): RunFinishedEvent {
  const run = toRunRecord(row);
  const event: RunFinishedEvent = { run_id: run.run_id, status: run.status, client_id: row.clientId };
  return Buffer.byteLength(JSON.stringify(run), 'utf8') <= MAX_EVENT_RUN_BYTES ? { ...event, run } : event;
}

/** What follows a run becoming final: announce it, then settle it. */
export interface FinalRunDeps extends SettleDeps {
  publishFinished(event: RunFinishedEvent): Promise<void>;
  logger: Logger;
}

/**
 * Announces a final run (`run.finished`, with its owner and record) and starts its settlement
 * without waiting for the wallet (settleInBackground). Never throws: the run is final in the
 * database whatever happens here; a lost event only delays waiters (they also poll) and a
 * settlement not confirmed is re-driven by the dispatcher's sweep.
 */
export async function announceFinalRun(deps: FinalRunDeps, run: StoredRun): Promise<void> {
  await deps.publishFinished(runFinishedEvent(run)).catch((err: unknown) => {
    deps.logger.warn({ run_id: run.id, err }, 'run.finished not published');
  });
  settleInBackground(deps, run);
}

/**
 * Settles a paid final run with the wallet (settleFinalRun) in the background: the caller (a
 * worker's report, a cancel) is answered without waiting for the wallet. A failure is logged; the
 * run keeps settled_at NULL and redriveSettlements asks again.
 */
export function settleInBackground(deps: FinalRunDeps, run: StoredRun): void {
  if (settlementFor(run) === undefined) return;
  settleFinalRun(deps, run).catch((err: unknown) => {
    deps.logger.warn({ run_id: run.id, err }, 'settlement not confirmed yet: the dispatcher re-drives it');
  });
}
