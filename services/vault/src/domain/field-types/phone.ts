import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { STARS } from './mask-helpers';
import { cleanLine } from './text';
import { fail, type NormalizeResult, ok } from './types';

/**
 * Phone numbers, stored in E.164 ("+493012345678"). Only international input is accepted (a leading
 * "+" or "00" and the country calling code): a vault value carries no country to read a national
 * number ("030 1234567") against, and guessing one would store a wrong number silently.
 *
 * libphonenumber-js with its default ("min") metadata checks the number's length for its country,
 * not the digit patterns of every numbering plan: plans change, and a person's real new number must
 * not be refused by stale metadata (the library author's advice, README "Using phone number
 * validation feature").
 */
export const PHONE_MAX = 32;
const INTERNATIONAL = /^(?:\+|00)[0-9][0-9 ()./-]*$/;
const SHAPE_RULE =
  'must be an international phone number: + (or 00), the country calling code and digits (E.164)';

export function normalizePhone(value: string): NormalizeResult {
  const cleaned = cleanLine(value, PHONE_MAX);
  if (!cleaned.ok) return cleaned;
  if (!INTERNATIONAL.test(cleaned.value)) return fail(SHAPE_RULE);
  const plus = cleaned.value.replace(/^00/, '+');
  const parsed = parsePhoneNumberFromString(plus);
  if (parsed === undefined) return fail(SHAPE_RULE);
  if (!parsed.isPossible()) {
    return fail('must have a number of digits valid for its country calling code (E.164)');
  }
  return ok(parsed.number);
}

/**
 * "+493012345645" → "+49 *** *** 45": the country calling code and the last two digits; the star
 * groups have a fixed width so the mask does not tell the number's length.
 */
export function maskPhone(value: string): string {
  const parsed = parsePhoneNumberFromString(value);
  if (parsed === undefined) return `+${STARS} ${STARS} ${STARS}`;
  const national = parsed.nationalNumber;
  // A national number of under 4 digits would be half shown by its last two.
  const last = national.length >= 4 ? national.slice(-2) : '**';
  return `+${parsed.countryCallingCode} ${STARS} ${STARS} ${last}`;
}
