import { spendPeriod } from '../src/index';

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
