import { remainingMicros, spendPeriod } from './balance';

const USD = 1_000_000n;

describe('spendPeriod', () => {
  it('is the calendar month in UTC containing now', () => {
    const period = spendPeriod(new Date('2026-09-15T12:34:56.789Z'));
    expect(period.start.toISOString()).toBe('2026-09-01T00:00:00.000Z');
    expect(period.end.toISOString()).toBe('2026-10-01T00:00:00.000Z');
  });

  it('rolls December over into January of the next year', () => {
    const period = spendPeriod(new Date('2026-12-31T23:59:59.999Z'));
    expect(period.start.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(period.end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('uses UTC, not the local offset, at a month boundary', () => {
    // 00:30 on Oct 1 in +02:00 is still September in UTC.
    const period = spendPeriod(new Date('2026-10-01T00:30:00+02:00'));
    expect(period.start.toISOString()).toBe('2026-09-01T00:00:00.000Z');
  });
});

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
