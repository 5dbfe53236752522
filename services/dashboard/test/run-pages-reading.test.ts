import { randomUUID } from 'node:crypto';
import type { RunRecord, RunSummary, RunTimelineEvent } from '@svc/contracts';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { formatDuration, formatUtc } from '../src/views/components';
import { RunDetail, statusDetail } from '../src/views/runs-detail';
import { NO_RUN_FILTERS, RunsList } from '../src/views/runs-list';
import { issuedQuote, ledgerReceipt, runRecord } from './view-records';

/**
 * Issue 23 item 12, what the run pages say: a hold reads as money reserved and released, not as a
 * second charge; a cancelled or failed run shows no price; the state is not said twice; the
 * capability filter is a list of the catalog's capabilities (runs-pages.int.test.ts: it needs the
 * registry behind the page); the history is exact to the millisecond with the time each step took.
 * (The 390 px layout is the browser suite's.)
 */

const PRICE = '0.25';

function paidRun(status: RunRecord['status']) {
  const runId = randomUUID();
  const run = runRecord({ run_id: runId, status, slug: 'crt', price_usd: PRICE });
  return { run, receipt: ledgerReceipt(run, issuedQuote(runId, 'crt', PRICE)) };
}

function detail(status: RunRecord['status'], events: RunTimelineEvent[] = []): string {
  const { run, receipt } = paidRun(status);
  return renderToString(
    h(RunDetail, { run, events, input: {}, receipt, artifacts: [], canCancel: true, csrfToken: 't' }),
  );
}

/** The receipt's rows: kind, entry words, amount shown, balance effect (data-usd) and its text. */
function receiptRows(html: string) {
  return [
    ...html.matchAll(
      /<tr data-testid="receipt-line" data-kind="(\w+)">.*?data-testid="receipt-entry">([^<]*)<.*?data-testid="receipt-amount" data-usd="([^"]+)">([^<]*)<.*?data-testid="receipt-balance" data-usd="([^"]+)">(.*?)<\/td>/g,
    ),
  ].map(([, kind, entry, , amount, balanceUsd, balance]) => ({
    kind,
    entry,
    amount,
    balanceUsd,
    balance: balance?.replace(/<[^>]+>/g, ''),
  }));
}

function summary(run: RunRecord): RunSummary {
  return {
    run_id: run.run_id,
    status: run.status,
    slug: run.slug,
    client_type: run.client_type,
    created_at: run.created_at,
    updated_at: run.updated_at,
    started_at: run.started_at,
    finished_at: run.finished_at,
    attempts: run.attempts,
    price_usd: run.price_usd,
    cancel_requested_at: run.cancel_requested_at,
  };
}

describe('the receipt: a hold is reserved, then released or charged', () => {
  it('a completed run: reserved (no change to the balance), then charged once', () => {
    const html = detail('completed');
    expect(receiptRows(html)).toEqual([
      {
        kind: 'hold',
        entry: 'Reserved (hold): set aside until the run settles',
        amount: '$0.25',
        balanceUsd: '0',
        balance: 'no change',
      },
      {
        kind: 'capture',
        entry: 'Charged (capture): the reservation is released into the charge',
        amount: '$0.25',
        balanceUsd: '-0.25',
        balance: '−$0.25',
      },
    ]);
    // One minus sign in the whole receipt: the charge. Not "hold −0.25" and "capture −0.25".
    const receipt = html.slice(html.indexOf('<h2>Receipt</h2>'));
    expect(receipt.match(/−/g)).toHaveLength(1);
    expect(html).toMatch(/data-testid="receipt-summary">Charged <span[^>]*>\$0\.25<\/span>; reserved now/);
  });

  it('a cancelled run: reserved, then released; nothing charged', () => {
    const html = detail('cancelled');
    expect(receiptRows(html).map((row) => [row.kind, row.balanceUsd, row.balance])).toEqual([
      ['hold', '0', 'no change'],
      ['release', '0', 'no change'],
    ]);
    expect(receiptRows(html)[1]?.entry).toBe('Released: the reservation is given back, nothing charged');
    expect(html).not.toContain('−');
    expect(html).toContain('data-testid="run-charged" data-usd="0.00"');
  });
});

describe('the runs list: no price for a run that was not charged', () => {
  it('shows the price charged, "not charged" for cancelled and failed, "reserved" while live', () => {
    const runs = (['completed', 'cancelled', 'failed', 'queued'] as const).map(
      (status) => paidRun(status).run,
    );
    const html = renderToString(
      h(RunsList, { runs: runs.map(summary), filters: NO_RUN_FILTERS, capabilities: [], nextHref: null }),
    );
    const prices = Object.fromEntries(
      [...html.matchAll(/data-run-id="([^"]+)".*?data-testid="run-row-price">(.*?)<\/td>/g)].map(
        ([, runId, cell]) => [
          runs.find((run) => run.run_id === runId)?.status,
          cell?.replace(/<[^>]+>/g, ''),
        ],
      ),
    );
    expect(prices).toEqual({
      completed: '$0.25',
      cancelled: 'not charged',
      failed: 'not charged',
      queued: '$0.25 reserved',
    });
  });
});

describe('the state, said once', () => {
  it('"is completed." rather than "is completed: completed"; a message that adds something is kept', () => {
    const completed = detail('completed');
    expect(completed).not.toContain('completed: completed');
    expect(completed.replace(/<[^>]+>/g, '')).toMatch(/Run [0-9a-f-]{36} is completed\./);
    expect(detail('queued').replace(/<[^>]+>/g, '')).toMatch(/ is queued: waiting for a worker\./);
    expect(statusDetail({ status: 'running', status_message: 'running (attempt 2)' })).toBe(' (attempt 2)');
    expect(statusDetail({ status: 'cancelled', status_message: 'cancelled' })).toBe('');
    expect(statusDetail({ status: 'failed', status_message: 'the provider refused' })).toBe(
      ': the provider refused',
    );
  });
});

describe('the history, to the millisecond', () => {
  it('shows each event at its millisecond and how long the step before it took', () => {
    const events: RunTimelineEvent[] = [
      { event: 'recorded', at: '2026-11-27T10:00:00.005Z', state: 'queued', description: 'Recorded.' },
      { event: 'dispatched', at: '2026-11-27T10:00:00.047Z', state: null, description: 'Dispatched.' },
      { event: 'started', at: '2026-11-27T10:00:01.289Z', state: 'running', description: 'Started.' },
      { event: 'finished', at: '2026-11-27T10:02:04.290Z', state: 'completed', description: 'Finished.' },
    ];
    const html = detail('completed', events);
    expect([...html.matchAll(/<time datetime="2026-11-27T10:0[^"]+">([^<]+)</gi)].map((m) => m[1])).toEqual(
      expect.arrayContaining([
        '2026-11-27 10:00:00.005 UTC',
        '2026-11-27 10:00:00.047 UTC',
        '2026-11-27 10:00:01.289 UTC',
        '2026-11-27 10:02:04.290 UTC',
      ]),
    );
    expect(
      [...html.matchAll(/data-testid="step-took" data-ms="(\d+)">([^<]+)</g)].map((m) => [m[1], m[2]]),
    ).toEqual([
      ['42', '42 ms'],
      ['1242', '1.242 s'],
      ['123001', '2 min 3.001 s'],
    ]);
  });

  it('formats times and durations', () => {
    expect(formatUtc('2026-11-27T03:04:05.678Z')).toBe('2026-11-27 03:04 UTC');
    expect(formatUtc('2026-11-27T03:04:05.678Z', 'ms')).toBe('2026-11-27 03:04:05.678 UTC');
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(999)).toBe('999 ms');
    expect(formatDuration(1_000)).toBe('1.000 s');
    expect(formatDuration(59_999)).toBe('59.999 s');
    expect(formatDuration(3_723_456)).toBe('1 h 2 min 3 s');
  });
});
