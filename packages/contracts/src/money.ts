import { USD_AMOUNT_PATTERN } from './common';

/** 1 USD = 1,000,000 micro-USD: the unit of every money column (BigInt) in the database. */
export const MICROS_PER_USD = 1_000_000n;

/** Largest UsdAmount (12 integer digits, 6 decimals), in micro-USD. */
const MAX_MICROS = 10n ** 18n - 1n;

/**
 * Formats micro-USD as a `UsdAmount` string: trailing zeros trimmed but at least 2 decimals
 * ("12.50", "0.004", "0.00"). Throws RangeError for negative amounts (a UsdAmount is
 * non-negative), amounts of 10^12 USD or more (outside UsdAmount), and numbers that are not safe
 * integers (they would already have lost precision).
 */
export function usdFromMicros(micros: bigint | number): string {
  if (typeof micros === 'number' && !Number.isSafeInteger(micros)) {
    throw new RangeError(`micro-USD amount must be a safe integer, got ${micros}`);
  }
  const value = BigInt(micros);
  if (value < 0n) throw new RangeError(`micro-USD amount must not be negative, got ${value}`);
  if (value > MAX_MICROS) throw new RangeError(`micro-USD amount exceeds 10^12 USD, got ${value}`);
  const whole = value / MICROS_PER_USD;
  const fraction = (value % MICROS_PER_USD).toString().padStart(6, '0');
  // Trim zeros from the right but keep cents: "500000" -> "50", "004000" -> "004", "000000" -> "00".
  let end = fraction.length;
  while (end > 2 && fraction[end - 1] === '0') end -= 1;
  return `${whole}.${fraction.slice(0, end)}`;
}

/**
 * Formats signed micro-USD as a `SignedUsdAmount` (ledger lines: holds and captures are negative,
 * docs/decisions.md W3): "-0.004", "12.50", "0.00". Same limits as usdFromMicros on the magnitude.
 */
export function signedUsdFromMicros(micros: bigint): string {
  return micros < 0n ? `-${usdFromMicros(-micros)}` : usdFromMicros(micros);
}

/**
 * Parses a `UsdAmount` string into micro-USD, exactly (no floating point). Throws RangeError when
 * the text has more than 6 decimals (it cannot be represented in micros) or is not a UsdAmount.
 */
export function microsFromUsd(amount: string): bigint {
  const decimals = /^[0-9]+\.([0-9]+)$/.exec(amount)?.[1];
  if (decimals !== undefined && decimals.length > 6) {
    throw new RangeError(`USD amount has more than 6 decimals: "${amount}"`);
  }
  if (!USD_AMOUNT_PATTERN.test(amount)) {
    throw new RangeError(`not a USD amount (non-negative decimal string): "${amount}"`);
  }
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * MICROS_PER_USD + BigInt(fraction.padEnd(6, '0'));
}
