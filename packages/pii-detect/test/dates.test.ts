import { parseDateAt } from '../src/index';

describe('parseDateAt', () => {
  test.each([
    ['1984-03-15', '1984-03-15', false],
    ['1984/3/5', '1984-03-05', false],
    ['15.03.1984', '1984-03-15', false],
    ['5.3.1984', '1984-03-05', false],
    ['15/03/1984', '1984-03-15', false],
    ['15-03-1984', '1984-03-15', false],
    ['03/15/1984', '1984-03-15', false],
    ['04/07/1990', '1990-07-04', true],
    ['15 March 1984', '1984-03-15', false],
    ['15. März 1984', '1984-03-15', false],
    ['15th of March, 1984', '1984-03-15', false],
    ['15-Mar-1984', '1984-03-15', false],
    ['March 15, 1984', '1984-03-15', false],
    ['Mar 5 1984', '1984-03-05', false],
    ['29.02.2000', '2000-02-29', false],
  ])('%s → %s (ambiguous: %s)', (text, iso, ambiguous) => {
    expect(parseDateAt(`${text} and more`)).toEqual({ iso, length: text.length, ambiguous });
  });

  test('a stated order settles slash dates whose numbers are both ≤ 12', () => {
    expect(parseDateAt('04/07/1990', 'dmy')).toEqual({ iso: '1990-07-04', length: 10, ambiguous: false });
    expect(parseDateAt('04/07/1990', 'mdy')).toEqual({ iso: '1990-04-07', length: 10, ambiguous: false });
    // Dots are always day first; a number > 12 decides whatever the hint says.
    expect(parseDateAt('04.07.1990', 'mdy')?.iso).toBe('1990-07-04');
    expect(parseDateAt('15/03/1984', 'mdy')?.iso).toBe('1984-03-15');
  });

  test.each([
    ['not a real day', '31.04.1984'],
    ['29 February outside a leap year', '29.02.1900'],
    ['month 13', '1984-13-01'],
    ['a two-digit year', '15.03.84'],
    ['a year before 1900', '15.03.1850'],
    ['an unknown month name', '15 Marchember 1984'],
    ['more digits glued on', '15.03.19845'],
    ['a date inside a longer token', '15.03.1984a'],
    ['not at the start', 'on 15.03.1984'],
  ])('%s: %s is not a date', (_why, text) => {
    expect(parseDateAt(text)).toBeNull();
  });
});
