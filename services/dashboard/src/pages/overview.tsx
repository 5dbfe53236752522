import type { PageModule } from '../page-kit';
import { OverviewView } from '../views/overview';

// days: the chart's span (issue 18: "spend per day over the last 30 days").
const CHART_DAYS = 30;

/** GET /dashboard: money, the 30-day chart, runs by state and the projection, in four parallel calls. */
export const overviewPages: PageModule = (kit) => {
  kit.get('/', 'overview', async (ctx) => {
    const clientId = ctx.account.clientId;
    const [balance, daily, counts, diagnostics] = await Promise.all([
      kit.deps.wallet.balance({ client_id: clientId }),
      kit.deps.wallet.dailySpend({ client_id: clientId, days: CHART_DAYS }),
      kit.deps.orchestrator.runCounts({ client_id: clientId }),
      kit.deps.wallet.spendDiagnostics({ client_id: clientId }),
    ]);
    ctx.render({
      title: 'Overview',
      active: 'overview',
      body: (
        <OverviewView
          balance={balance}
          daily={daily}
          counts={counts}
          diagnostics={diagnostics}
          linkRuns={ctx.can('runs')}
        />
      ),
    });
  });
};
