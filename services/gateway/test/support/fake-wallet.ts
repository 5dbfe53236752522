import type { DailySpendResponse, SpendDiagnosticsResponse, UsageStatementResponse } from '@svc/contracts';
import { type AppError, ServiceUnavailableError } from '@svc/errors';
import type { UsageStatementRequest, WalletReader } from '../../src/ports';
import { balanceAnswer } from './fixtures';

/**
 * An in-memory stand-in for the wallet's RPC as the account routes use it: fixed, contract-valid
 * answers, every request recorded, `down` for a 503 and `failNext` for any error the wallet may
 * answer (e.g. its 422 for a period that is too long). The real wallet has its own suites.
 */
export class FakeWallet implements WalletReader {
  readonly usageRequests: UsageStatementRequest[] = [];
  readonly diagnosticsClients: string[] = [];
  readonly dailySpendRequests: Array<{ clientId: string; days: number }> = [];
  down = false;
  failNext: AppError | null = null;

  async balance(clientId: string) {
    this.enter();
    return balanceAnswer(clientId);
  }

  async usageStatement(request: UsageStatementRequest): Promise<UsageStatementResponse> {
    this.usageRequests.push(request);
    this.enter();
    return {
      ok: true,
      client_id: request.client_id,
      currency: 'USD',
      period: {
        start: request.from ?? '2026-08-01T00:00:00.000Z',
        end: request.to ?? '2026-09-01T00:00:00.000Z',
      },
      slug: request.slug ?? null,
      lines: [
        {
          run_id: '7d3f0c1e-2a4b-4c5d-8e6f-0a1b2c3d4e5f',
          slug: 'pii-redact',
          amount_usd: '0.004',
          captured_at: '2026-08-12T09:30:00.000Z',
        },
      ].slice(0, request.limit),
      lines_truncated: false,
      by_capability: [{ slug: 'pii-redact', runs: 1, spent_usd: '0.004' }],
      totals: { runs: 1, spent_usd: '0.004' },
    };
  }

  /** `days` days ending 2026-08-12 (UTC): 0.004 USD on the last day, nothing before. */
  async dailySpend(clientId: string, days: number): Promise<DailySpendResponse> {
    this.dailySpendRequests.push({ clientId, days });
    this.enter();
    const last = Date.UTC(2026, 7, 12);
    const series = Array.from({ length: days }, (_, index) => {
      const date = new Date(last - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10);
      return index === days - 1 ? { date, spent_usd: '0.004', runs: 1 } : { date, spent_usd: '0', runs: 0 };
    });
    return { client_id: clientId, currency: 'USD', days: series, total_usd: '0.004', runs: 1 };
  }

  async spendDiagnostics(clientId: string): Promise<SpendDiagnosticsResponse> {
    this.diagnosticsClients.push(clientId);
    this.enter();
    return {
      ok: true,
      client_id: clientId,
      currency: 'USD',
      as_of: '2026-08-12T10:00:00.000Z',
      balance_usd: '4.996',
      held_usd: '0.00',
      spend_cap_usd: null,
      spent_this_period_usd: '0.004',
      remaining_usd: '4.996',
      burn_rate: [
        { window: '1h', spent_usd: '0.004', runs: 1, usd_per_hour: '0.004' },
        { window: '24h', spent_usd: '0.004', runs: 1, usd_per_hour: '0.000166' },
        { window: '7d', spent_usd: '0.004', runs: 1, usd_per_hour: '0.000023' },
      ],
      projection: {
        basis_window: '24h',
        usd_per_hour: '0.000166',
        cap_reached_at: null,
        balance_empty_at: null,
        note: 'no spend cap; at the 24h rate the balance lasts more than a year',
      },
      top_capabilities: [{ slug: 'pii-redact', runs: 1, spent_usd: '0.004', share_pct: 100 }],
    };
  }

  private enter(): void {
    const planned = this.failNext;
    if (planned !== null) {
      this.failNext = null;
      throw planned;
    }
    if (this.down) throw new ServiceUnavailableError('wallet service did not answer within 1000 ms');
  }
}
