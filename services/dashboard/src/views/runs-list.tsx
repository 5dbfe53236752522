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

/** A capability the filter offers: its slug (the value) and what the list shows. */
export interface CapabilityChoice {
  readonly slug: string;
  readonly name: string;
}

/**
 * The filter's options: the catalog's capabilities by name, and the chosen slug too when the catalog
 * no longer lists it (a retired capability still has runs), so a filter never silently drops.
 */
function capabilityChoices(
  capabilities: readonly CapabilityChoice[],
  chosen: string,
): Array<{ slug: string; label: string }> {
  const choices = [...capabilities]
    .sort((a, b) => a.name.localeCompare(b.name, 'en'))
    .map((capability) => ({ slug: capability.slug, label: `${capability.name} (${capability.slug})` }));
  if (chosen !== '' && !choices.some((choice) => choice.slug === chosen)) {
    choices.push({ slug: chosen, label: chosen });
  }
  return choices;
}

function FilterForm(props: {
  readonly filters: RunFilters;
  readonly capabilities: readonly CapabilityChoice[];
}) {
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
        <select name="capability" data-testid="capability-filter">
          <option value="" selected={filters.capability === ''}>
            Any
          </option>
          {capabilityChoices(props.capabilities, filters.capability).map((choice) => (
            <option key={choice.slug} value={choice.slug} selected={filters.capability === choice.slug}>
              {choice.label}
            </option>
          ))}
        </select>
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

/**
 * What a run costs as far as its state says (decisions L-D): a completed run was charged its price, a
 * failed or cancelled one nothing (its hold was released), a live one has its price reserved.
 */
export function RunPrice(props: { readonly run: Pick<RunSummary, 'status' | 'price_usd'> }) {
  const { status, price_usd: price } = props.run;
  if (status === 'completed') return <Money usd={price} />;
  if (status === 'failed' || status === 'cancelled') return <span class="muted">not charged</span>;
  return (
    <>
      <Money usd={price} /> <span class="muted">reserved</span>
    </>
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
      <td class="num" data-testid="run-row-price">
        <RunPrice run={run} />
      </td>
    </tr>
  );
}

export interface RunsListProps {
  readonly runs: readonly RunSummary[];
  readonly filters: RunFilters;
  /** The capabilities the filter offers (the catalog's). */
  readonly capabilities: readonly CapabilityChoice[];
  /** The next page's link (same filters, the list's next_cursor), or null on the last page. */
  readonly nextHref: string | null;
}

/** GET /dashboard/runs: filters, one page of runs (newest first), the next page link. */
export function RunsList(props: RunsListProps) {
  const filtered = Object.values(props.filters).some((value) => value !== '');
  return (
    <>
      <FilterForm filters={props.filters} capabilities={props.capabilities} />
      <Table
        testId="runs-table"
        columns={['Run', 'Capability', 'State', 'Recorded', 'Finished', 'Cost']}
        numeric={['Cost']}
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
