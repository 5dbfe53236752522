import { maskPaymentCard, normalizePaymentCard } from './payment-card';

describe('payment_card', () => {
  it.each([
    ['4111 1111 1111 1111', '4111111111111111'],
    ['5555-5555-5555-4444', '5555555555554444'],
    ['3782 822463 10005', '378282246310005'], // 15 digits (Amex test number)
    ['6759649826438453', '6759649826438453'], // Maestro test number
  ])('accepts %j as %s (digits only)', (input, stored) => {
    expect(normalizePaymentCard(input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    [
      'a Luhn failure',
      '4111 1111 1111 1112',
      'must be a card number with a valid Luhn check digit (ISO/IEC 7812)',
    ],
    ['too few digits', '4111 1111 11', 'must be a card number of 12-19 digits (ISO/IEC 7812)'],
    ['too many digits', '4111 1111 1111 1111 1111', 'must be a card number of 12-19 digits (ISO/IEC 7812)'],
    [
      'a letter',
      '4111 1111 1111 111O',
      'must be a card number: digits, optionally grouped with spaces or hyphens',
    ],
    [
      'dots',
      '4111.1111.1111.1111',
      'must be a card number: digits, optionally grouped with spaces or hyphens',
    ],
  ])('refuses %s', (_what, input, rule) => {
    expect(normalizePaymentCard(input)).toEqual({ ok: false, rule });
  });

  it('masks all but the last four', () => {
    expect(maskPaymentCard('4111111111111111')).toBe('**** 1111');
    expect(maskPaymentCard('378282246310005')).toBe('**** 0005');
  });
});
