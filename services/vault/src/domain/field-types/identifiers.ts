import { lastCharsMask } from './mask-helpers';
import { cleanLine, upperAscii } from './text';
import { fail, type NormalizeResult, ok } from './types';

/**
 * Document and registry numbers: national id, tax id, passport number, postal code. Their formats
 * depend on a country the value does not carry, so only the character set and length are checked;
 * letters are upper-cased (how they are printed on documents and forms).
 */

export const IDENTIFIER_MAX = 40;
export const PASSPORT_MAX = 30;
export const POSTAL_CODE_MAX = 12;

const IDENTIFIER = /^[A-Z0-9](?:[A-Z0-9 ./-]*[A-Z0-9])?$/;
const IDENTIFIER_RULE =
  "must be letters A-Z and digits (with ' ', '.', '/' or '-' between them): at least 4, one of them a digit";

function alphanumerics(value: string): string {
  return value.replace(/[^A-Z0-9]/g, '');
}

/** National id and tax id: kept as printed (separators included), upper-case, spaces collapsed. */
export function normalizeIdentifier(value: string): NormalizeResult {
  const cleaned = cleanLine(value, IDENTIFIER_MAX);
  if (!cleaned.ok) return cleaned;
  const upper = upperAscii(cleaned.value);
  if (upper === null || !IDENTIFIER.test(upper)) return fail(IDENTIFIER_RULE);
  const core = alphanumerics(upper);
  return core.length >= 4 && /[0-9]/.test(core) ? ok(upper) : fail(IDENTIFIER_RULE);
}

/** Passport numbers are printed and machine-read without separators (ICAO 9303: up to 9 in the MRZ). */
export function normalizePassport(value: string): NormalizeResult {
  const cleaned = cleanLine(value, PASSPORT_MAX);
  if (!cleaned.ok) return cleaned;
  const compact = upperAscii(cleaned.value.replace(/ /g, ''));
  if (compact === null || !/^[A-Z0-9]{5,20}$/.test(compact) || !/[0-9]/.test(compact)) {
    return fail('must be a passport number of 5-20 letters A-Z and digits, with at least one digit');
  }
  return ok(compact);
}

export function normalizePostalCode(value: string): NormalizeResult {
  const cleaned = cleanLine(value, POSTAL_CODE_MAX);
  if (!cleaned.ok) return cleaned;
  const upper = upperAscii(cleaned.value);
  if (
    upper === null ||
    !/^[A-Z0-9](?:[A-Z0-9 -]*[A-Z0-9])?$/.test(upper) ||
    alphanumerics(upper).length < 2
  ) {
    return fail('must be a postal code of 2-12 letters A-Z, digits, spaces or hyphens');
  }
  return ok(upper);
}

/**
 * The last 3 letters/digits of a long identifier, 2 of a shorter one, none of one under 6 (there the
 * tail would be a third of it): "****789", "****47". The star run does not show the length.
 */
export function maskIdentifier(value: string): string {
  const core = alphanumerics(value);
  if (core.length >= 10) return lastCharsMask(core, 3);
  if (core.length >= 6) return lastCharsMask(core, 2);
  return lastCharsMask(core, 0);
}

/**
 * The first two characters of a postal code of 4 or more (the region: "10***", "SW** ***"), the
 * rest starred with separators kept; a shorter code is all stars.
 */
export function maskPostalCode(value: string): string {
  const reveal = alphanumerics(value).length >= 4 ? 2 : 0;
  let shown = 0;
  return Array.from(value)
    .map((char) => {
      if (char === ' ' || char === '-') return char;
      shown += 1;
      return shown <= reveal ? char : '*';
    })
    .join('');
}
