import {
  BalanceResponse,
  LedgerLine,
  Quote,
  SpendDiagnosticsResponse,
  UsageStatementResponse,
} from '@svc/contracts';
import {
  toBalanceResponse,
  toLedgerLine,
  toQuoteResponse,
  toSpendDiagnosticsResponse,
  toUsageStatementResponse,
} from './wire';

const period = { start: new Date('2026-09-01T00:00:00.000Z'), end: new Date('2026-10-01T00:00:00.000Z') };
const clientId = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';

describe('toBalanceResponse', () => {
  it('formats micro-USD as UsdAmount strings and the period as ISO 8601', () => {
    const body = toBalanceResponse({
      clientId,
      balanceMicros: 12_500_000n,
      heldMicros: 4_000n,
      spentMicros: 0n,
      spendCapMicros: null,
      remainingMicros: 12_496_000n,
      period,
    });
    expect(BalanceResponse.parse(body)).toEqual({
      ok: true,
      client_id: clientId,
      currency: 'USD',
      balance_usd: '12.50',
      held_usd: '0.004',
      spent_usd: '0.00',
      spend_cap_usd: null,
      remaining_usd: '12.496',
      period: { start: '2026-09-01T00:00:00.000Z', end: '2026-10-01T00:00:00.000Z' },
    });
  });

  it('shows a balance pushed below zero by a debit adjustment as 0.00 (UsdAmount is non-negative)', () => {
    const body = toBalanceResponse({
      clientId,
      balanceMicros: -3_000_000n,
      heldMicros: 0n,
      spentMicros: 0n,
      spendCapMicros: 0n,
      remainingMicros: 0n,
      period,
    });
    expect(body.balance_usd).toBe('0.00');
    expect(body.spend_cap_usd).toBe('0.00');
    expect(BalanceResponse.safeParse(body).success).toBe(true);
  });
});

describe('toQuoteResponse', () => {
  it('maps a quote stored without detail to the wire Quote (USD string, ISO timestamps, clearance)', () => {
    const body = toQuoteResponse({
      id: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      clientId,
      slug: 'crt',
      priceMicros: 0n,
      inputHash: 'a'.repeat(64),
      cleared: true,
      clearance: 'free capability: no funds needed',
      detail: null,
      createdAt: new Date('2026-09-15T12:00:00.000Z'),
      expiresAt: new Date('2026-09-15T12:15:00.000Z'),
    });
    expect(Quote.parse(body)).toEqual({
      quote_id: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      slug: 'crt',
      price_usd: '0.00',
      currency: 'USD',
      wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' },
      created_at: '2026-09-15T12:00:00.000Z',
      expires_at: '2026-09-15T12:15:00.000Z',
    });
  });

  it('shows the stored clearance figures and price detail as issued', () => {
    const clearance = {
      cleared: false,
      reason:
        'insufficient balance: the price 0.004 USD would exceed the 0.001 USD available (balance 0.003 USD, 0.002 USD held)',
      balance_usd: '0.003',
      held_usd: '0.002',
      spend_cap_usd: null,
      spent_usd: '0.00',
      remaining_usd: '0.001',
      remaining_after_usd: '0.00',
    };
    const priceDetail = {
      model: 'per_unit' as const,
      unit: '1000_characters',
      units: 2,
      unit_price_usd: '0.002',
      minimum_usd: '0.002',
      minimum_applied: false,
    };
    const body = toQuoteResponse({
      id: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      clientId,
      slug: 'pii-redact',
      priceMicros: 4_000n,
      inputHash: 'a'.repeat(64),
      cleared: false,
      clearance: clearance.reason,
      detail: { wallet_clearance: clearance, price_detail: priceDetail },
      createdAt: new Date('2026-09-15T12:00:00.000Z'),
      expiresAt: new Date('2026-09-15T12:15:00.000Z'),
    });
    expect(Quote.parse(body)).toEqual({
      quote_id: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      slug: 'pii-redact',
      price_usd: '0.004',
      currency: 'USD',
      wallet_clearance: clearance,
      created_at: '2026-09-15T12:00:00.000Z',
      expires_at: '2026-09-15T12:15:00.000Z',
      price_detail: priceDetail,
    });
  });
});

describe('toLedgerLine', () => {
  it('signs amounts as stored: holds and captures negative, releases positive', () => {
    const base = {
      id: '9d1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e',
      clientId,
      runId: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      slug: 'pii-redact',
      note: 'hold for run 3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      createdAt: new Date('2026-09-15T12:00:00.000Z'),
    };
    const hold = toLedgerLine({ ...base, kind: 'hold', amountMicros: -4_000n });
    expect(LedgerLine.parse(hold)).toEqual({
      entry_id: base.id,
      kind: 'hold',
      amount_usd: '-0.004',
      run_id: base.runId,
      slug: 'pii-redact',
      note: base.note,
      created_at: '2026-09-15T12:00:00.000Z',
    });
    expect(toLedgerLine({ ...base, kind: 'release', amountMicros: 4_000n }).amount_usd).toBe('0.004');
  });
});

describe('statement and diagnostics bodies', () => {
  it('match their response schemas', () => {
    const statement = toUsageStatementResponse({
      clientId,
      period,
      slug: null,
      lines: [
        {
          runId: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
          slug: 'pii-redact',
          amountMicros: 4_000n,
          capturedAt: new Date('2026-09-10T00:00:00.000Z'),
        },
      ],
      linesTruncated: false,
      byCapability: [{ slug: 'pii-redact', runs: 1, spentMicros: 4_000n }],
      totals: { runs: 1, spentMicros: 4_000n },
    });
    expect(UsageStatementResponse.parse(statement)).toEqual(statement);
    expect(statement.lines[0]).toEqual({
      run_id: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      slug: 'pii-redact',
      amount_usd: '0.004',
      captured_at: '2026-09-10T00:00:00.000Z',
    });

    const diagnostics = toSpendDiagnosticsResponse({
      asOf: new Date('2026-09-15T12:00:00.000Z'),
      snapshot: {
        clientId,
        balanceMicros: 1_000_000n,
        heldMicros: 0n,
        spentMicros: 24_000n,
        spendCapMicros: null,
        remainingMicros: 1_000_000n,
        period,
      },
      windows: [
        { window: '1h', spentMicros: 0n, runs: 0 },
        { window: '24h', spentMicros: 24_000n, runs: 6 },
        { window: '7d', spentMicros: 24_000n, runs: 6 },
      ],
      projection: {
        basisWindow: '24h',
        perHourMicros: 1_000n,
        capReachedAt: null,
        balanceEmptyAt: new Date('2026-10-27T00:00:00.000Z'),
        note: 'straight line',
      },
      topCapabilities: [
        { slug: 'pii-redact', runs: 4, spentMicros: 16_000n },
        { slug: 'html-to-pdf', runs: 2, spentMicros: 8_000n },
      ],
      periodSpentMicros: 24_000n,
    });
    expect(SpendDiagnosticsResponse.parse(diagnostics)).toEqual(diagnostics);
    expect(diagnostics.burn_rate[1]).toEqual({
      window: '24h',
      spent_usd: '0.024',
      runs: 6,
      usd_per_hour: '0.001',
    });
    expect(diagnostics.top_capabilities.map((top) => top.share_pct)).toEqual([66.7, 33.3]);
    expect(diagnostics.projection).toEqual({
      basis_window: '24h',
      usd_per_hour: '0.001',
      cap_reached_at: null,
      balance_empty_at: '2026-10-27T00:00:00.000Z',
      note: 'straight line',
    });
  });
});
