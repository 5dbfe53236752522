import { type ListRunsQueryInput, RUN_STATES, RunListCursor, Slug, Uuid } from '@svc/contracts';
import { PageError } from '../page-kit';
import { NOT_FOUND_TEXT } from '../render';
import type { RunFilters } from '../views/runs-list';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

function text(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A `YYYY-MM-DD` day as its UTC midnight, or a 422 page. */
function dayStart(day: string, label: string): number {
  const at = DAY.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : Number.NaN;
  if (Number.isNaN(at)) throw new PageError(422, `"${label}" must be a day written YYYY-MM-DD.`);
  return at;
}

export interface RunsListRequest {
  readonly filters: RunFilters;
  readonly query: ListRunsQueryInput;
  readonly cursor: string;
}

/**
 * The runs page's query string → the list's filters and `orchestrator.listRuns` query. Days are UTC;
 * `to` is included (the query's `created_to`, exclusive, is the next midnight). A state, slug or
 * cursor that cannot be one is a 422 page; a range ending before it starts is the orchestrator's 422.
 */
export function runsListRequest(query: Record<string, unknown>): RunsListRequest {
  const filters: RunFilters = {
    state: text(query, 'state'),
    capability: text(query, 'capability'),
    from: text(query, 'from'),
    to: text(query, 'to'),
  };
  const cursor = text(query, 'cursor');
  if (filters.state !== '' && !(RUN_STATES as readonly string[]).includes(filters.state)) {
    throw new PageError(422, `"State" must be one of: ${RUN_STATES.join(', ')}.`);
  }
  if (filters.capability !== '' && !Slug.safeParse(filters.capability).success) {
    throw new PageError(422, '"Capability" must be a capability slug, such as crt or pdf-extract-text.');
  }
  if (cursor !== '' && !RunListCursor.safeParse(cursor).success) {
    throw new PageError(422, 'That page link is not valid: start again from the first page.');
  }
  const listQuery: ListRunsQueryInput = {
    ...(filters.state === '' ? {} : { state: filters.state as (typeof RUN_STATES)[number] }),
    ...(filters.capability === '' ? {} : { capability: filters.capability }),
    ...(filters.from === '' ? {} : { created_from: new Date(dayStart(filters.from, 'From')).toISOString() }),
    ...(filters.to === '' ? {} : { created_to: new Date(dayStart(filters.to, 'To') + DAY_MS).toISOString() }),
    ...(cursor === '' ? {} : { cursor }),
  };
  return { filters, query: listQuery, cursor };
}

/** The next page's link: the same filters and the list's `next_cursor`. */
export function nextRunsHref(filters: RunFilters, nextCursor: string | null): string | null {
  if (nextCursor === null) return null;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== '') params.set(name, value);
  params.set('cursor', nextCursor);
  return `/dashboard/runs?${params.toString()}`;
}

/** A path id that is not a UUID names nothing: the same 404 page as another client's id. */
export function idParam(value: unknown): string {
  const parsed = Uuid.safeParse(value);
  if (!parsed.success) throw new PageError(404, NOT_FOUND_TEXT);
  return parsed.data;
}
