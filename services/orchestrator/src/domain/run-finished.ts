import type { EventPayloadInput } from '@svc/contracts';
import { type RunRecordRow, toRunRecord } from './run-record';

/**
 * bytes: the largest RunRecord (JSON, UTF-8) that rides on `run.finished`. Redis sends every event
 * to every gateway replica, and each one parses it whether or not a request of its own waits on the
 * run, so a large record costs every replica. A crt record with the default limit (100 hostnames)
 * is about 10 KiB; limit 1,000 with long names can reach ~300 KiB. Above this size the event names
 * the run only, and the one gateway that waits on it loads it with `getRun` (one RPC, as before).
 */
export const MAX_EVENT_RUN_BYTES = 64 * 1024;

/** A stored run with its owner (what `run.finished` is made of) and its settlement state. */
export interface StoredRun extends RunRecordRow {
  readonly clientId: string;
  /** When the wallet settlement of a paid final run was queued; null = not yet (settlement.ts). */
  readonly settleQueuedAt: Date | null;
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
