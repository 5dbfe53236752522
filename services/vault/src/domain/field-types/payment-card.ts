import { luhnValid } from '@svc/pii-detect';
import { cleanLine } from './text';
import { fail, type NormalizeResult, ok } from './types';

/**
 * Payment card numbers (PANs), stored as digits only. Input may be grouped with spaces or hyphens.
 * Length 12-19 (ISO/IEC 7812-1) and the Luhn check digit; the network is not required to be known.
 */
export const CARD_MAX = 32; // 19 digits plus separators
const GROUPED_DIGITS = /^[0-9](?:[0-9 -]*[0-9])?$/;

export function normalizePaymentCard(value: string): NormalizeResult {
  const cleaned = cleanLine(value, CARD_MAX);
  if (!cleaned.ok) return cleaned;
  if (!GROUPED_DIGITS.test(cleaned.value))
    return fail('must be a card number: digits, optionally grouped with spaces or hyphens');
  const digits = cleaned.value.replace(/[ -]/g, '');
  if (digits.length < 12 || digits.length > 19)
    return fail('must be a card number of 12-19 digits (ISO/IEC 7812)');
  if (!luhnValid(digits)) return fail('must be a card number with a valid Luhn check digit (ISO/IEC 7812)');
  return ok(digits);
}

/** "4111111111111111" → "**** 1111": the last four, as card issuers and PCI DSS show them. */
export function maskPaymentCard(value: string): string {
  return `**** ${value.slice(-4)}`;
}
