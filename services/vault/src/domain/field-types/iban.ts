import { ValidationErrorsIBAN, validateIBAN } from 'ibantools';
import { groupsOfFour } from './mask-helpers';
import { cleanLine, upperAscii } from './text';
import { fail, type NormalizeResult, ok } from './types';

/**
 * IBANs (ISO 13616), stored in electronic format: compact, upper case ("DE89370400440532013000").
 * Input may be grouped with spaces or hyphens, in any case. ibantools checks the country, its IBAN
 * length, its BBAN format (and the national check digits where it knows them) and mod-97.
 */
export const IBAN_MAX = 50; // 34 characters (ISO 13616 maximum) plus separators
const SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/;

const RULE_SHAPE =
  'must be an IBAN: a country code, 2 check digits and up to 30 letters or digits (ISO 13616)';
const RULE_COUNTRY = 'must be an IBAN of a country that uses IBANs (ISO 13616)';
const RULE_LENGTH = 'must be an IBAN of the length fixed for its country (ISO 13616)';
const RULE_FORMAT = "must be an IBAN whose account part has its country's format (ISO 13616)";
const RULE_CHECKSUM = 'must be an IBAN with a valid mod-97 check digit (ISO 13616)';

export function normalizeIban(value: string): NormalizeResult {
  const cleaned = cleanLine(value, IBAN_MAX);
  if (!cleaned.ok) return cleaned;
  const compact = upperAscii(cleaned.value.replace(/[ -]/g, ''));
  if (compact === null || !SHAPE.test(compact)) return fail(RULE_SHAPE);
  const { valid, errorCodes } = validateIBAN(compact, { allowQRIBAN: true });
  if (valid) return ok(compact);
  // Most telling first: a wrong length also breaks the format and the checksum.
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) return fail(RULE_COUNTRY);
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return fail(RULE_LENGTH);
  if (
    errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat) ||
    errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)
  ) {
    return fail(RULE_FORMAT);
  }
  return fail(RULE_CHECKSUM);
}

/**
 * "DE89370400440532013000" → "DE89 **** **** **** **30 00": country and check digits (no account
 * data) and the last four, grouped as printed. The shortest IBANs (15) still hide 7 characters.
 */
export function maskIban(value: string): string {
  const chars = Array.from(value);
  const masked = chars.map((char, i) => (i < 4 || i >= chars.length - 4 ? char : '*')).join('');
  return groupsOfFour(masked);
}
