import { maskPhone, normalizePhone } from './phone';

const SHAPE = 'must be an international phone number: + (or 00), the country calling code and digits (E.164)';
const LENGTH = 'must have a number of digits valid for its country calling code (E.164)';

describe('phone', () => {
  it.each([
    ['+49 30 901820', '+4930901820'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+1 (415) 555-2671', '+14155552671'],
    ['+49 (0) 30 1234567', '+49301234567'], // the "(0)" trunk prefix of printed German numbers is dropped
    ['+33.1.23.45.67.89', '+33123456789'],
    ['+81 3-1234-5678', '+81312345678'],
  ])('accepts %j as %s (E.164)', (input, stored) => {
    expect(normalizePhone(input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    ['a national number', '030 1234567', SHAPE],
    ['no + or 00', '49 30 901820', SHAPE],
    ['letters', '+49 30 CALL-NOW', SHAPE],
    ['an extension', '+49 30 123456 ext. 12', SHAPE],
    ['an unknown country calling code', '+999 1234 5678', SHAPE],
    ['too few digits for its country', '+49 30', LENGTH],
    ['too many digits for its country', '+1 415 555 2671 99', LENGTH],
  ])('refuses %s', (_what, input, rule) => {
    expect(normalizePhone(input)).toEqual({ ok: false, rule });
  });

  it('masks all but the country calling code and the last two digits, in groups of fixed width', () => {
    expect(maskPhone('+493012345645')).toBe('+49 *** *** 45');
    expect(maskPhone('+14155552671')).toBe('+1 *** *** 71');
    expect(maskPhone('+4930901820')).toBe('+49 *** *** 20');
  });
});
