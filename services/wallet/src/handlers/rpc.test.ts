import { BalanceResponse, Quote } from '@svc/contracts';
import { toBalanceResponse, toQuoteResponse } from './rpc';

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
  it('maps a stored quote to the wire Quote (USD string, ISO timestamps, clearance)', () => {
    const body = toQuoteResponse({
      id: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      clientId,
      slug: 'crt',
      priceMicros: 0n,
      inputHash: 'a'.repeat(64),
      cleared: true,
      clearance: 'free capability: no funds needed',
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
});
