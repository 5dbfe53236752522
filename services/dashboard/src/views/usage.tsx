import type { UsageStatementResponse } from '@svc/contracts';
import { Money, Table, Time } from './components';

export interface UsagePeriod {
  /** YYYY-MM-DD, inclusive. */
  readonly from: string;
  /** YYYY-MM-DD, inclusive (the wallet's `to` is the next day's 00:00 UTC). */
  readonly to: string;
}

export function PeriodForm(props: { readonly period: UsagePeriod; readonly errors: readonly string[] }) {
  return (
    <form method="get" action="/dashboard/usage" class="filters">
      <label>
        From (UTC)
        <input type="date" name="from" value={props.period.from} required />
      </label>
      <label>
        To (UTC, included)
        <input type="date" name="to" value={props.period.to} required />
      </label>
      <button type="submit">Show</button>
      {props.errors.length === 0 ? null : (
        <p class="form-error" role="alert" data-testid="usage-errors">
          {props.errors.join(' ')}
        </p>
      )}
    </form>
  );
}

export function UsageView(props: {
  readonly period: UsagePeriod;
  readonly statement: UsageStatementResponse;
  readonly linkRuns: boolean;
}) {
  const { statement } = props;
  const csv = `/dashboard/usage.csv?${new URLSearchParams({ from: props.period.from, to: props.period.to })}`;
  return (
    <>
      <p>
        <Money usd={statement.totals.spent_usd} testId="usage-total" /> over {statement.totals.runs} charged{' '}
        {statement.totals.runs === 1 ? 'run' : 'runs'}, <Time at={statement.period.start} /> to{' '}
        <Time at={statement.period.end} />.{' '}
        <a href={csv} data-testid="usage-csv" download>
          Download CSV
        </a>
      </p>
      <h2>Per capability</h2>
      <Table
        testId="usage-table"
        columns={['Capability', 'Charged runs', 'Spent']}
        numeric={['Charged runs', 'Spent']}
        rowCount={statement.by_capability.length}
        empty="Nothing was charged in this period."
      >
        {statement.by_capability.map((row) => (
          <tr key={row.slug} data-slug={row.slug}>
            <td>
              <code>{row.slug}</code>
            </td>
            <td class="num">{row.runs}</td>
            <td class="num">
              <Money usd={row.spent_usd} />
            </td>
          </tr>
        ))}
      </Table>
      <h2>Latest charges</h2>
      <Table
        testId="usage-lines"
        columns={['Charged at', 'Capability', 'Run', 'Amount']}
        numeric={['Amount']}
        rowCount={statement.lines.length}
        empty="No charge in this period."
      >
        {statement.lines.map((line) => (
          <tr key={line.run_id}>
            <td>
              <Time at={line.captured_at} />
            </td>
            <td>
              <code>{line.slug}</code>
            </td>
            <td>
              {props.linkRuns ? (
                <a href={`/dashboard/runs/${line.run_id}`}>
                  <code>{line.run_id}</code>
                </a>
              ) : (
                <code>{line.run_id}</code>
              )}
            </td>
            <td class="num">
              <Money usd={line.amount_usd} />
            </td>
          </tr>
        ))}
      </Table>
      {statement.lines_truncated ? (
        <p class="muted">
          Only the latest {statement.lines.length} charges are listed; the totals cover the whole period.
        </p>
      ) : null}
    </>
  );
}
