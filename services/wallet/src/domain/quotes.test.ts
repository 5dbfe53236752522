import { ConflictError, ValidationError } from '@svc/errors';
import type { BalanceSnapshot } from './balance';
import { clearAgainstBalance, FREE_CLEARANCE_REASON, type QuoteRequest, sameQuoteOrThrow } from './quotes';

const USD = 1_000_000n;
const CLIENT = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';
const OTHER_CLIENT = '0b9d7c1e-8a53-4c4e-9d0a-2f6f1f4f6a11';
const QUOTE_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';
const HASH = 'a'.repeat(64);

function snapshot(parts: Partial<BalanceSnapshot>): BalanceSnapshot {
  return {
    clientId: CLIENT,
    balanceMicros: 0n,
    heldMicros: 0n,
    spentMicros: 0n,
    spendCapMicros: null,
    remainingMicros: 0n,
    period: { start: new Date('2026-09-01T00:00:00Z'), end: new Date('2026-10-01T00:00:00Z') },
    ...parts,
  };
}

describe('clearAgainstBalance', () => {
  it('clears a zero price whatever the wallet holds', () => {
    expect(clearAgainstBalance(0n, snapshot({}))).toEqual({ cleared: true, reason: FREE_CLEARANCE_REASON });
    expect(FREE_CLEARANCE_REASON).toBe('free capability: no funds needed');
  });

  it('clears a price the remaining amount covers, exactly at the limit too', () => {
    expect(
      clearAgainstBalance(2n * USD, snapshot({ balanceMicros: 2n * USD, remainingMicros: 2n * USD })),
    ).toEqual({ cleared: true, reason: 'remaining 2.00 USD covers the price 2.00 USD' });
  });

  it('refuses when the balance binds, and names the held money', () => {
    expect(
      clearAgainstBalance(USD, snapshot({ balanceMicros: 500_000n, remainingMicros: 500_000n })),
    ).toEqual({
      cleared: false,
      reason: 'balance 0.50 USD is below the price 1.00 USD',
    });
    const held = snapshot({ balanceMicros: 3n * USD, heldMicros: 2_500_000n, remainingMicros: 500_000n });
    expect(clearAgainstBalance(USD, held)).toEqual({
      cleared: false,
      reason: 'balance 0.50 USD (2.50 USD held) is below the price 1.00 USD',
    });
  });

  it('refuses when the spend cap binds, and says so', () => {
    const capped = snapshot({
      balanceMicros: 100n * USD,
      spentMicros: 4_600_000n,
      spendCapMicros: 5n * USD,
      remainingMicros: 400_000n,
    });
    expect(clearAgainstBalance(USD, capped)).toEqual({
      cleared: false,
      reason: 'spend cap: 0.40 USD left of the 5.00 USD monthly cap is below the price 1.00 USD',
    });
  });

  it('shows a cap already passed as 0 left, never a negative amount', () => {
    const passed = snapshot({ balanceMicros: 100n * USD, spentMicros: 7n * USD, spendCapMicros: 5n * USD });
    expect(clearAgainstBalance(USD, passed).reason).toBe(
      'spend cap: 0.00 USD left of the 5.00 USD monthly cap is below the price 1.00 USD',
    );
  });
});

describe('sameQuoteOrThrow', () => {
  const stored = {
    id: QUOTE_ID,
    clientId: CLIENT,
    slug: 'crt',
    priceMicros: 0n,
    inputHash: HASH,
    cleared: true,
    clearance: FREE_CLEARANCE_REASON,
    createdAt: new Date('2026-09-15T12:00:00Z'),
    expiresAt: new Date('2026-09-15T12:15:00Z'),
  };
  const request: QuoteRequest = {
    quoteId: QUOTE_ID,
    clientId: CLIENT,
    slug: 'crt',
    priceMicros: 0n,
    inputHash: HASH,
  };

  it('returns the stored quote for the same client, slug and input', () => {
    expect(sameQuoteOrThrow(stored, request)).toBe(stored);
    // The stored price wins over a retried one: a quote is a promise made once.
    expect(sameQuoteOrThrow(stored, { ...request, priceMicros: USD })).toBe(stored);
  });

  it('answers 409 when another client holds the id', () => {
    const attempt = () => sameQuoteOrThrow(stored, { ...request, clientId: OTHER_CLIENT });
    expect(attempt).toThrow(ConflictError);
    expect(attempt).toThrow(`quote_id ${QUOTE_ID} is already in use`);
  });

  it('answers 422 when the same client uses the id for another input or capability', () => {
    for (const changed of [{ inputHash: 'b'.repeat(64) }, { slug: 'dns' }]) {
      const attempt = () => sameQuoteOrThrow(stored, { ...request, ...changed });
      expect(attempt).toThrow(ValidationError);
      expect(attempt).toThrow(`quote_id ${QUOTE_ID} was issued for a different input`);
    }
  });
});
