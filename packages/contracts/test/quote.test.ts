import { Quote, WalletClearance } from '../src/index';
import { quote, RUN_ID } from './support/run-fixtures';

describe('Quote (spec §2.2, docs/decisions.md Q1)', () => {
  test('the zero-price crt quote parses unchanged', () => {
    expect(Quote.parse(quote())).toEqual(quote());
  });

  test('every field is required', () => {
    for (const key of Object.keys(quote())) {
      const partial: Record<string, unknown> = quote();
      delete partial[key];
      expect({ key, ok: Quote.safeParse(partial).success }).toEqual({ key, ok: false });
    }
  });

  test('price_usd is a non-negative USD decimal string, currency is USD', () => {
    for (const price_usd of ['0', '0.000001', '12.50', '999999999999.999999']) {
      expect(Quote.safeParse(quote({ price_usd })).success).toBe(true);
    }
    for (const price_usd of [0, '-1', '0.0000001', '1e3', '01', '', ' 1']) {
      expect({ price_usd, ok: Quote.safeParse(quote({ price_usd })).success }).toEqual({
        price_usd,
        ok: false,
      });
    }
    for (const currency of ['usd', 'EUR', '', null]) {
      expect(Quote.safeParse(quote({ currency })).success).toBe(false);
    }
  });

  test('ids, slug and instants have their shapes', () => {
    for (const bad of [
      { quote_id: 'q-1' },
      { quote_id: null },
      { slug: 'CRT' },
      { created_at: '2026-11-21' },
      { expires_at: 1763722557123 },
    ]) {
      expect({ bad, ok: Quote.safeParse(quote(bad)).success }).toEqual({ bad, ok: false });
    }
    expect(Quote.parse(quote({ quote_id: RUN_ID.toUpperCase() })).quote_id).toBe(RUN_ID.toUpperCase());
  });

  test('strict, and so is wallet_clearance', () => {
    expect(Quote.safeParse(quote({ run_id: RUN_ID })).success).toBe(false);
    expect(Quote.safeParse(quote({ wallet_clearance: { cleared: true } })).success).toBe(false);
    expect(Quote.safeParse(quote({ wallet_clearance: { cleared: 'yes', reason: 'r' } })).success).toBe(false);
    expect(
      Quote.safeParse(quote({ wallet_clearance: { cleared: true, reason: 'r', balance: '1' } })).success,
    ).toBe(false);
    expect(
      WalletClearance.parse({ cleared: false, reason: 'balance 0.50 USD is below the price 1.00 USD' }),
    ).toEqual({
      cleared: false,
      reason: 'balance 0.50 USD is below the price 1.00 USD',
    });
  });
});
