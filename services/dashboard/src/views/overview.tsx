import type {
  BalanceResponse,
  DailySpendResponse,
  RunCountsResponse,
  SpendDiagnosticsResponse,
} from '@svc/contracts';
import { RUN_STATES } from '@svc/contracts';
import type { ComponentChildren } from 'preact';
import { Money, Time } from './components';
import { SpendChart } from './spend-chart';

export interface OverviewData {
  readonly balance: BalanceResponse;
  readonly daily: DailySpendResponse;
  readonly counts: RunCountsResponse;
  readonly diagnostics: SpendDiagnosticsResponse;
  /** Whether the run counts link to the runs page (the role can read runs). */
  readonly linkRuns: boolean;
}

function Card(props: { readonly label: string; readonly children: ComponentChildren }) {
  return (
    <div class="card">
      <span class="label">{props.label}</span>
      <span class="value">{props.children}</span>
    </div>
  );
}

function Projection(props: { readonly projection: SpendDiagnosticsResponse['projection'] }) {
  const { projection } = props;
  return (
    <section data-testid="projection">
      <h2>Projection</h2>
      <ul>
        <li>
          Spend cap reached:{' '}
          <Time at={projection.cap_reached_at} never="not within this period at the current rate" />
        </li>
        <li>
          Balance empty:{' '}
          <Time at={projection.balance_empty_at} never="not within a year at the current rate" />
        </li>
      </ul>
      <p class="muted">
        At <Money usd={projection.usd_per_hour} /> per hour
        {projection.basis_window === null ? '' : ` (rate of the last ${projection.basis_window})`}.{' '}
        {projection.note}
      </p>
    </section>
  );
}

export function OverviewView(props: OverviewData) {
  const { balance, daily, counts, diagnostics } = props;
  return (
    <>
      <div class="cards">
        <Card label="Balance">
          <Money usd={balance.balance_usd} testId="balance" />
        </Card>
        <Card label="Held for running work">
          <Money usd={balance.held_usd} testId="held" />
        </Card>
        <Card label="Spent this month">
          <Money usd={balance.spent_usd} testId="spent-month" />
        </Card>
        <Card label="Spend cap">
          {balance.spend_cap_usd === null ? (
            <span data-testid="spend-cap">No cap</span>
          ) : (
            <Money usd={balance.spend_cap_usd} testId="spend-cap" />
          )}
        </Card>
      </div>
      <p class="muted">
        Period <Time at={balance.period.start} /> to <Time at={balance.period.end} />;{' '}
        <Money usd={balance.remaining_usd} /> left to spend.
      </p>
      <h2>Spend per day</h2>
      <SpendChart days={daily.days} />
      <h2>Runs by state</h2>
      <table data-testid="runs-by-state">
        <tbody>
          {RUN_STATES.map((state) => (
            <tr key={state} data-state={state}>
              <th scope="row">
                {props.linkRuns ? <a href={`/dashboard/runs?state=${state}`}>{state}</a> : state}
              </th>
              <td class="num">{counts.counts[state]}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">total</th>
            <td class="num">{counts.total}</td>
          </tr>
        </tbody>
      </table>
      <Projection projection={diagnostics.projection} />
    </>
  );
}
