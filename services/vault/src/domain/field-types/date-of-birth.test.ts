import { maskDateOfBirth, normalizeDateOfBirth } from './date-of-birth';

// 2026-11-26 noon UTC: already 2026-11-27 02:00 at UTC+14.
const now = new Date('2026-11-26T12:00:00Z');

describe('date_of_birth', () => {
  it.each(['1990-04-15', '2000-02-29', '2024-02-29', '1900-01-01', '2026-11-26', '2026-11-27'])(
    'accepts %s',
    (date) => {
      expect(normalizeDateOfBirth(date, { now })).toEqual({ ok: true, value: date });
    },
  );

  it.each([
    ['30 February', '2026-02-30', 'must be a real calendar date'],
    ['29 February of a common year', '2023-02-29', 'must be a real calendar date'],
    ['29 February 1900 (not a leap year)', '1900-02-29', 'must be a real calendar date'],
    ['month 13', '1990-13-01', 'must be a real calendar date'],
    ['month 0', '1990-00-10', 'must be a real calendar date'],
    ['day 0', '1990-04-00', 'must be a real calendar date'],
    ['31 April', '1990-04-31', 'must be a real calendar date'],
    ['a day after tomorrow anywhere on Earth', '2026-11-28', 'must not be in the future'],
    ['a future year', '2999-01-01', 'must not be in the future'],
    ['a date before 1900', '1899-12-31', 'must not be before 1900-01-01'],
    ['a day-first date', '15.04.1990', 'must be a date written YYYY-MM-DD (ISO 8601)'],
    ['a slashed date', '04/15/1990', 'must be a date written YYYY-MM-DD (ISO 8601)'],
    ['no zero padding', '1990-4-15', 'must be a date written YYYY-MM-DD (ISO 8601)'],
    ['a date-time', '1990-04-15T00:00', 'must be at most 10 characters'],
    ['non-ASCII digits', '١٩٩٠-٠٤-١٥', 'must be a date written YYYY-MM-DD (ISO 8601)'],
  ])('refuses %s', (_what, input, rule) => {
    expect(normalizeDateOfBirth(input, { now })).toEqual({ ok: false, rule });
  });

  it('uses the current time when no clock is given', () => {
    expect(normalizeDateOfBirth('2999-01-01').ok).toBe(false);
    expect(normalizeDateOfBirth('1990-04-15').ok).toBe(true);
  });

  it('masks all but the day of the month', () => {
    expect(maskDateOfBirth('1990-04-15')).toBe('****-**-15');
  });
});
