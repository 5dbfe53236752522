import { RUN_STATES, type RunSummary } from '@svc/contracts';
import { Money, Pagination, Table, Time } from './components';

/** The runs list's filters as the form sends them back (dates are UTC days, `to` inclusive). */
export interface RunFilters {
  readonly state: string;
  readonly capability: string;
  readonly from: string;
  readonly to: string;
}

export const NO_RUN_FILTERS: RunFilters = { state: '', capability: '', from: '', to: '' };

export function runHref(runId: string): string {
  return `/dashboard/runs/${encodeURIComponent(runId)}`;
}

function FilterForm(props: { readonly filters: RunFilters }) {
  const { filters } = props;
  return (
    <form method="get" action="/dashboard/runs" class="filters" data-testid="run-filters">
      <label>
        State
        <select name="state">
          <option value="" selected={filters.state === ''}>
            Any
          </option>
          {RUN_STATES.map((state) => (
            <option key={state} value={state} selected={filters.state === state}>
              {state}
            </option>
          ))}
        </select>
      </label>
      <label>
        Capability
        <input
          type="text"
          name="capability"
          value={filters.capability}
          placeholder="e.g. crt"
          maxLength={64}
        />
      </label>
      <label>
        From (UTC day)
        <input type="date" name="from" value={filters.from} />
      </label>
      <label>
        To (UTC day, included)
        <input type="date" name="to" value={filters.to} />
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}

export function RunRow(props: { readonly run: RunSummary }) {
  const { run } = props;
  return (
    <tr data-testid="run-row" data-run-id={run.run_id}>
      <td>
        <a href={runHref(run.run_id)}>
          <code>{run.run_id.slice(0, 8)}</code>
        </a>
      </td>
      <td>{run.slug}</td>
      <td data-testid="run-row-state">
        <span class={`state state-${run.status}`}>{run.status}</span>
        {run.cancel_requested_at !== null && run.status === 'running' ? ' (cancel requested)' : null}
      </td>
      <td>
        <Time at={run.created_at} />
      </td>
      <td>
        <Time at={run.finished_at} never="—" />
      </td>
      <td>
        <Money usd={run.price_usd} />
      </td>
    </tr>
  );
}

export interface RunsListProps {
  readonly runs: readonly RunSummary[];
  readonly filters: RunFilters;
  /** The next page's link (same filters, the list's next_cursor), or null on the last page. */
  readonly nextHref: string | null;
}

/** GET /dashboard/runs: filters, one page of runs (newest first), the next page link. */
export function RunsList(props: RunsListProps) {
  const filtered = Object.values(props.filters).some((value) => value !== '');
  return (
    <>
      <FilterForm filters={props.filters} />
      <Table
        testId="runs-table"
        columns={['Run', 'Capability', 'State', 'Recorded', 'Finished', 'Price']}
        rowCount={props.runs.length}
        empty={filtered ? 'No run matches these filters.' : 'No run yet.'}
      >
        {props.runs.map((run) => (
          <RunRow key={run.run_id} run={run} />
        ))}
      </Table>
      <Pagination nextHref={props.nextHref} />
    </>
  );
}
