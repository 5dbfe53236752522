import { USAGE_MAX_SPAN_MS } from '@svc/contracts';
import { stringify } from 'csv-stringify/sync';
import type { PageContext, PageModule } from '../page-kit';
import type { PlatformPorts } from '../ports';
import { PeriodForm, type UsagePeriod, UsageView } from '../views/usage';

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
// lines: the page lists the latest charges; the CSV has every capability's totals.
const PAGE_LINES = 100;

function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** This UTC month so far: the statement's default period. */
function defaultPeriod(now: number): UsagePeriod {
  const today = utcDate(now);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

interface ParsedPeriod {
  readonly period: UsagePeriod;
  readonly errors: string[];
  /** RFC 3339 instants for the wallet: from 00:00 of `from` to 00:00 of the day after `to`. */
  readonly range: { from: string; to: string };
}

/** `from`/`to` as dates (both days included); a bad period falls back to this month, with its error. */
export function parsePeriod(query: Record<string, unknown>, now: number): ParsedPeriod {
  const fallback = defaultPeriod(now);
  const from = typeof query.from === 'string' && query.from !== '' ? query.from : fallback.from;
  const to = typeof query.to === 'string' && query.to !== '' ? query.to : fallback.to;
  const fromMs = DATE.test(from) ? Date.parse(`${from}T00:00:00Z`) : Number.NaN;
  const toMs = DATE.test(to) ? Date.parse(`${to}T00:00:00Z`) + DAY_MS : Number.NaN;
  const errors: string[] = [];
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) errors.push('Give both dates as YYYY-MM-DD.');
  else if (toMs <= fromMs) errors.push('The period must end on or after its first day.');
  else if (toMs - fromMs > USAGE_MAX_SPAN_MS) errors.push('A period covers at most a year.');
  const period = errors.length === 0 ? { from, to } : fallback;
  const start = Date.parse(`${period.from}T00:00:00Z`);
  const end = Date.parse(`${period.to}T00:00:00Z`) + DAY_MS;
  return { period, errors, range: { from: new Date(start).toISOString(), to: new Date(end).toISOString() } };
}

function statementFor(
  ctx: PageContext,
  parsed: ParsedPeriod,
  wallet: PlatformPorts['wallet'],
  limit: number,
) {
  return wallet.usageStatement({ client_id: ctx.account.clientId, ...parsed.range, limit });
}

/** /dashboard/usage (per capability, latest charges) and /dashboard/usage.csv (per capability). */
export const usagePages: PageModule = (kit) => {
  const now = () => kit.deps.now?.() ?? Date.now();
  kit.get('/usage', 'usage', async (ctx) => {
    const parsed = parsePeriod(ctx.req.query, now());
    const statement = await statementFor(ctx, parsed, kit.deps.wallet, PAGE_LINES);
    ctx.render({
      title: 'Usage',
      active: 'usage',
      status: parsed.errors.length === 0 ? 200 : 422,
      body: (
        <>
          <PeriodForm period={parsed.period} errors={parsed.errors} />
          <UsageView period={parsed.period} statement={statement} linkRuns={ctx.can('runs')} />
        </>
      ),
    });
  });

  kit.get('/usage.csv', 'usage', async (ctx) => {
    const parsed = parsePeriod(ctx.req.query, now());
    if (parsed.errors.length > 0) {
      ctx.res
        .status(422)
        .type('text/plain')
        .send(`${parsed.errors.join(' ')}\n`);
      return;
    }
    const statement = await statementFor(ctx, parsed, kit.deps.wallet, 1);
    const csv = stringify(
      statement.by_capability.map((row) => [
        parsed.period.from,
        parsed.period.to,
        row.slug,
        row.runs,
        row.spent_usd,
      ]),
      { header: true, columns: ['period_from', 'period_to', 'capability', 'charged_runs', 'spent_usd'] },
    );
    ctx.res
      .status(200)
      .type('text/csv; charset=utf-8')
      .attachment(`usage-${parsed.period.from}-to-${parsed.period.to}.csv`)
      .send(csv);
  });
};
