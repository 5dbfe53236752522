import { USAGE_MAX_SPAN_MS } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import { resolveUsagePeriod } from './usage-statement';

const NOW = new Date('2026-09-15T12:00:00.000Z');

describe('resolveUsagePeriod', () => {
  it('defaults to the current UTC calendar month', () => {
    expect(resolveUsagePeriod({}, NOW)).toEqual({
      start: new Date('2026-09-01T00:00:00.000Z'),
      end: new Date('2026-10-01T00:00:00.000Z'),
    });
  });

  it('takes each bound on its own, offsets included', () => {
    expect(resolveUsagePeriod({ from: '2026-09-10T02:00:00+02:00' }, NOW)).toEqual({
      start: new Date('2026-09-10T00:00:00.000Z'),
      end: new Date('2026-10-01T00:00:00.000Z'),
    });
    expect(resolveUsagePeriod({ to: '2026-09-02T00:00:00Z' }, NOW)).toEqual({
      start: new Date('2026-09-01T00:00:00.000Z'),
      end: new Date('2026-09-02T00:00:00.000Z'),
    });
  });

  it('answers 422 unless from is before to', () => {
    const equal = () => resolveUsagePeriod({ from: '2026-09-05T00:00:00Z', to: '2026-09-05T00:00:00Z' }, NOW);
    expect(equal).toThrow(ValidationError);
    expect(equal).toThrow(
      'from (2026-09-05T00:00:00.000Z) must be before to (2026-09-05T00:00:00.000Z): the period is [from, to)',
    );
    // A `to` before the default start (the month's) is refused as well.
    expect(() => resolveUsagePeriod({ to: '2026-08-01T00:00:00Z' }, NOW)).toThrow(ValidationError);
  });

  it('accepts a span of exactly USAGE_MAX_SPAN_MS and refuses one millisecond more', () => {
    const from = new Date('2026-01-01T00:00:00.000Z');
    const to = new Date(from.getTime() + USAGE_MAX_SPAN_MS);
    expect(resolveUsagePeriod({ from: from.toISOString(), to: to.toISOString() }, NOW)).toEqual({
      start: from,
      end: to,
    });
    const longer = new Date(to.getTime() + 1).toISOString();
    expect(() => resolveUsagePeriod({ from: from.toISOString(), to: longer }, NOW)).toThrow(
      `the period from 2026-01-01T00:00:00.000Z to ${longer} is longer than the 366 days one statement covers`,
    );
  });
});
