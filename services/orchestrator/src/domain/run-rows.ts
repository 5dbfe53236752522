import { RunState } from '@svc/contracts';
import { Prisma } from '@svc/db';
import { z } from 'zod';
import type { StoredRun } from './run-finished';

/**
 * `RETURNING` list of raw UPDATEs on orchestrator.runs: every column a StoredRun needs (the
 * RunRecord, the owner, the current job and the settlement state), so announcing or settling a run just moved costs
 * no second query. Parse the rows with `returnedRun`.
 */
export const RETURNING_STORED_RUN = Prisma.sql`RETURNING id::text AS id, public_id::text AS public_id, client_id::text AS client_id,
  status::text AS status, slug, client_type, quote_id::text AS quote_id, created_at, updated_at,
  started_at, finished_at, result, error, attempts, price_micros, runtime, execution_status,
  last_error, cancel_requested_at, job_id, settled_at`;

/** One row of RETURNING_STORED_RUN (raw SQL: snake_case). */
const ReturnedRow = z
  .object({
    id: z.string(),
    public_id: z.string(),
    client_id: z.string(),
    status: RunState,
    slug: z.string(),
    client_type: z.string(),
    quote_id: z.string().nullable(),
    created_at: z.date(),
    updated_at: z.date(),
    started_at: z.date().nullable(),
    finished_at: z.date().nullable(),
    result: z.unknown(),
    error: z.unknown(),
    attempts: z.number().int(),
    price_micros: z.bigint(),
    runtime: z.string(),
    execution_status: z.string(),
    last_error: z.string().nullable(),
    cancel_requested_at: z.date().nullable(),
    job_id: z.string().nullable(),
    settled_at: z.date().nullable(),
  })
  .transform(
    (row): StoredRun => ({
      id: row.id,
      publicId: row.public_id,
      clientId: row.client_id,
      status: row.status,
      slug: row.slug,
      clientType: row.client_type,
      quoteId: row.quote_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      result: row.result,
      error: row.error,
      attempts: row.attempts,
      priceMicros: row.price_micros,
      runtime: row.runtime,
      executionStatus: row.execution_status,
      lastError: row.last_error,
      cancelRequestedAt: row.cancel_requested_at,
      jobId: row.job_id,
      settledAt: row.settled_at,
    }),
  );

/** The first row of an UPDATE … RETURNING_STORED_RUN, or undefined when it matched none. */
export function returnedRun(rows: unknown[]): StoredRun | undefined {
  const row = rows[0];
  return row === undefined ? undefined : ReturnedRow.parse(row);
}

/** `status IN (…)` for a list of run states (the enum needs its cast). */
export function statusIn(states: readonly RunState[]): Prisma.Sql {
  if (states.length === 0) return Prisma.sql`FALSE`;
  return Prisma.sql`status IN (${Prisma.join(states.map((state) => Prisma.sql`${state}::orchestrator.run_status`))})`;
}
