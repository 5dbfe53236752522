import { WalletClearance } from '@svc/contracts';
import type { BalanceSnapshot } from './balance';
import { remainingMicros } from './balance';
import {
  clearAgainstBalance,
  FREE_CLEARANCE_REASON,
  findShortfall,
  paymentRequiredMessage,
  shortfallMessage,
} from './clearance';

const USD = 1_000_000n;

/** A snapshot whose remaining amount is derived like getBalance does, from the parts given. */
function snapshot(parts: Partial<Omit<BalanceSnapshot, 'remainingMicros'>>): BalanceSnapshot {
  const totals = { balanceMicros: 0n, heldMicros: 0n, spentMicros: 0n, spendCapMicros: null, ...parts };
  return {
    clientId: '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e',
    period: { start: new Date('2026-09-01T00:00:00Z'), end: new Date('2026-10-01T00:00:00Z') },
    ...totals,
    remainingMicros: remainingMicros(totals),
  };
}

/** The design's two examples ("Errors" table). */
const BALANCE_SHORT = snapshot({ balanceMicros: 3_000n, heldMicros: 2_000n });
const CAP_SHORT = snapshot({
  balanceMicros: 10n * USD,
  heldMicros: 2_000n,
  spentMicros: 16_000n,
  spendCapMicros: 20_000n,
});

describe('paymentRequiredMessage (the 402 texts)', () => {
  it('names price, available amount, balance and held money when the balance binds', () => {
    expect(paymentRequiredMessage(4_000n, BALANCE_SHORT)).toBe(
      'insufficient balance: the price 0.004 USD exceeds the 0.001 USD available (balance 0.003 USD, 0.002 USD held)',
    );
  });

  it('names price, what is left of the cap, the cap, spent and held when the cap binds', () => {
    expect(paymentRequiredMessage(4_000n, CAP_SHORT)).toBe(
      'spend cap exceeded: the price 0.004 USD exceeds the 0.002 USD left of the 0.02 USD monthly spend cap (0.016 USD spent, 0.002 USD held)',
    );
  });

  it('is null when the price fits, exactly at the limit too', () => {
    expect(paymentRequiredMessage(1_000n, BALANCE_SHORT)).toBeNull();
    expect(paymentRequiredMessage(2_000n, CAP_SHORT)).toBeNull();
    expect(paymentRequiredMessage(2_001n, CAP_SHORT)).not.toBeNull();
  });

  it('shows a cap already passed and a debt as 0, never negative', () => {
    const passed = snapshot({ balanceMicros: 100n * USD, spentMicros: 7n * USD, spendCapMicros: 5n * USD });
    expect(paymentRequiredMessage(USD, passed)).toBe(
      'spend cap exceeded: the price 1.00 USD exceeds the 0.00 USD left of the 5.00 USD monthly spend cap (7.00 USD spent, 0.00 USD held)',
    );
    const debt = snapshot({ balanceMicros: -2n * USD });
    expect(paymentRequiredMessage(USD, debt)).toBe(
      'insufficient balance: the price 1.00 USD exceeds the 0.00 USD available (balance 0.00 USD, 0.00 USD held)',
    );
  });
});

describe('findShortfall', () => {
  it('names the smaller limit; a tie goes to the balance', () => {
    expect(findShortfall(3n * USD, snapshot({ balanceMicros: 2n * USD, spendCapMicros: 1n * USD }))).toEqual({
      limit: 'spend_cap',
      leftMicros: USD,
      capMicros: USD,
    });
    expect(findShortfall(3n * USD, snapshot({ balanceMicros: 1n * USD, spendCapMicros: 2n * USD }))).toEqual({
      limit: 'balance',
      availableMicros: USD,
    });
    expect(findShortfall(3n * USD, snapshot({ balanceMicros: USD, spendCapMicros: USD }))).toEqual({
      limit: 'balance',
      availableMicros: USD,
    });
  });

  it('counts held money against both limits', () => {
    const held = snapshot({ balanceMicros: 10n * USD, heldMicros: 9n * USD, spendCapMicros: 50n * USD });
    expect(findShortfall(2n * USD, held)).toEqual({ limit: 'balance', availableMicros: USD });
  });
});

describe('clearAgainstBalance (a quote)', () => {
  it('clears a zero price with no figures and no wallet read', () => {
    expect(clearAgainstBalance(0n, snapshot({}))).toEqual({ cleared: true, reason: FREE_CLEARANCE_REASON });
    expect(FREE_CLEARANCE_REASON).toBe('free capability: no funds needed');
  });

  it('clears a covered price with every figure, and what remains after the run', () => {
    const clearance = clearAgainstBalance(
      1_500_000n,
      snapshot({
        balanceMicros: 3n * USD,
        heldMicros: USD,
        spentMicros: 250_000n,
        spendCapMicros: 10n * USD,
      }),
    );
    expect(clearance).toEqual({
      cleared: true,
      reason: 'remaining 2.00 USD covers the price 1.50 USD',
      balance_usd: '3.00',
      held_usd: '1.00',
      spend_cap_usd: '10.00',
      spent_usd: '0.25',
      remaining_usd: '2.00',
      remaining_after_usd: '0.50',
    });
    expect(WalletClearance.parse(clearance)).toEqual(clearance);
  });

  it('refuses in the "would" form with the same figures, remaining after 0', () => {
    expect(clearAgainstBalance(4_000n, BALANCE_SHORT)).toEqual({
      cleared: false,
      reason:
        'insufficient balance: the price 0.004 USD would exceed the 0.001 USD available (balance 0.003 USD, 0.002 USD held)',
      balance_usd: '0.003',
      held_usd: '0.002',
      spend_cap_usd: null,
      spent_usd: '0.00',
      remaining_usd: '0.001',
      remaining_after_usd: '0.00',
    });
    expect(clearAgainstBalance(4_000n, CAP_SHORT)).toMatchObject({
      cleared: false,
      reason:
        'spend cap exceeded: the price 0.004 USD would exceed the 0.002 USD left of the 0.02 USD monthly spend cap (0.016 USD spent, 0.002 USD held)',
      spend_cap_usd: '0.02',
      remaining_usd: '0.002',
    });
  });

  it('says the same as the 402 except for the verb', () => {
    const shortfall = findShortfall(4_000n, CAP_SHORT);
    if (shortfall === null) throw new Error('expected a shortfall');
    expect(shortfallMessage(4_000n, CAP_SHORT, shortfall, 'would')).toBe(
      shortfallMessage(4_000n, CAP_SHORT, shortfall, 'now').replace('exceeds', 'would exceed'),
    );
  });
});
