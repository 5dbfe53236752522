import { absMicros, remainingMicros, shownUsd } from './balance';

const USD = 1_000_000n;

describe('remainingMicros', () => {
  const base = { balanceMicros: 10n * USD, heldMicros: 0n, spentMicros: 0n, spendCapMicros: null };

  it('is balance minus held when there is no cap', () => {
    expect(remainingMicros({ ...base, heldMicros: 3n * USD })).toBe(7n * USD);
  });

  it('is limited by the cap minus spent minus held when that is smaller', () => {
    expect(
      remainingMicros({ ...base, spendCapMicros: 5n * USD, spentMicros: 2n * USD, heldMicros: USD }),
    ).toBe(2n * USD);
  });

  it('is limited by the balance when the cap is larger', () => {
    expect(remainingMicros({ ...base, spendCapMicros: 50n * USD, heldMicros: USD })).toBe(9n * USD);
  });

  it('is never negative', () => {
    expect(remainingMicros({ ...base, spendCapMicros: 5n * USD, spentMicros: 7n * USD })).toBe(0n);
    expect(remainingMicros({ ...base, balanceMicros: -2n * USD })).toBe(0n);
  });

  it('a zero cap allows nothing', () => {
    expect(remainingMicros({ ...base, spendCapMicros: 0n })).toBe(0n);
  });
});

describe('absMicros and shownUsd', () => {
  it('gives the size of a hold whatever its sign', () => {
    expect(absMicros(-4_000n)).toBe(4_000n);
    expect(absMicros(4_000n)).toBe(4_000n);
    expect(absMicros(0n)).toBe(0n);
  });

  it('shows a negative amount as 0 (docs/decisions.md W2)', () => {
    expect(shownUsd(-3n * USD)).toBe('0.00');
    expect(shownUsd(2_500_000n)).toBe('2.50');
  });
});
