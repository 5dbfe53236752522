import {
  INTERNAL_RUN_ERROR,
  Quote,
  RunError,
  type RunRecord,
  type RunSummary,
  usdFromMicros,
} from '@svc/contracts';
import type { Prisma, Run } from '@svc/db';
import { statusMessage, waitingForRuntime } from './status-message';

/** The columns a RunSummary is made of (the `select` of a run list). */
export const RUN_SUMMARY_COLUMNS = {
  publicId: true,
  status: true,
  slug: true,
  clientType: true,
  createdAt: true,
  updatedAt: true,
  startedAt: true,
  finishedAt: true,
  attempts: true,
  priceMicros: true,
  cancelRequestedAt: true,
} as const satisfies Prisma.RunSelect;

export type RunSummaryRow = Pick<Run, keyof typeof RUN_SUMMARY_COLUMNS>;

/**
 * The columns a RunRecord is made of: a whole `Run`, or the row an UPDATE … RETURNING gave back
 * (reports.ts). `result` and `error` are checked here, so any stored JSON will do.
 */
export interface RunRecordRow
  extends RunSummaryRow,
    Pick<Run, 'id' | 'quoteId' | 'runtime' | 'executionStatus' | 'lastError'> {
  readonly result: unknown;
  readonly error: unknown;
}

export interface RunRecordOptions {
  /**
   * Whether a worker of the run's runtime is up (ZCOUNT of its heartbeat set), when it was checked:
   * only for queued/retrying `requires_worker` runs (needsWorkerCheck). Unchecked: not waiting.
   */
  workerUp?: boolean | undefined;
}

/**
 * Row → the fields a run list shows (RunSummary, a pick of RunRecord); toRunRecord starts from it,
 * so a run reads the same in a list and on its own. Timestamps as RFC 3339 UTC (`toISOString`),
 * null while unset.
 */
export function toRunSummary(row: RunSummaryRow): RunSummary {
  return {
    // The id the owner knows the run by (docs/decisions.md C16), never the internal one.
    run_id: row.publicId,
    status: row.status,
    slug: row.slug,
    client_type: row.clientType,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    attempts: row.attempts,
    // A negative price cannot be stored by us; shown as 0 rather than failing the read.
    price_usd: usdFromMicros(row.priceMicros < 0n ? 0n : row.priceMicros),
    cancel_requested_at: row.cancelRequestedAt?.toISOString() ?? null,
  };
}

/**
 * Row → wire (docs/decisions.md C6, L-A): the summary's fields and the rest of the record;
 * `result` only once completed, `error` only once failed, so a client never sees a half-written
 * result next to a non-final status.
 */
export function toRunRecord(row: RunRecordRow, options: RunRecordOptions = {}): RunRecord {
  const waiting = waitingForRuntime(row, options.workerUp);
  const record: RunRecord = {
    ...toRunSummary(row),
    quote_id: row.quoteId,
    runtime: row.runtime,
    waiting_for_runtime: waiting,
    status_message: '',
  };
  if (row.status === 'completed' && isJsonObject(row.result)) record.result = row.result;
  if (row.status === 'failed') {
    const error = RunError.safeParse(row.error);
    record.error = error.success ? error.data : INTERNAL_RUN_ERROR;
  }
  record.status_message = statusMessage({ ...row, error: record.error, waitingForRuntime: waiting });
  return record;
}

/** The quote stored with the run (null for a run stored without one, or one that no longer parses). */
export function storedQuote(row: Pick<Run, 'quote'>): Quote | null {
  const quote = Quote.safeParse(row.quote);
  return quote.success ? quote.data : null;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
