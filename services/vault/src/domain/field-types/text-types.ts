import { VAULT_VALUE_MAX_CHARACTERS } from '@svc/contracts';
import { firstCharMask } from './mask-helpers';
import { cleanLine, cleanText, codePointLength } from './text';
import { fail, type NormalizeResult } from './types';

/**
 * Free-form text types: names, address parts, company, free text. Their content is not checked
 * beyond the common text rules (names have no universal shape), except that a name must hold a letter.
 */
const LETTER = /\p{L}/u;

export const NAME_MAX = 100;
export const FULL_NAME_MAX = 200;
export const ADDRESS_LINE_MAX = 200;
export const PLACE_MAX = 100;
export const COMPANY_MAX = 200;
export const FREE_TEXT_MAX = VAULT_VALUE_MAX_CHARACTERS;

export function normalizeName(maxLength: number) {
  return (value: string): NormalizeResult => {
    const cleaned = cleanLine(value, maxLength);
    if (!cleaned.ok) return cleaned;
    return LETTER.test(cleaned.value) ? cleaned : fail('must contain a letter');
  };
}

export function normalizeLine(maxLength: number) {
  return (value: string): NormalizeResult => cleanLine(value, maxLength);
}

export function normalizeFreeText(value: string): NormalizeResult {
  return cleanText(value, { maxLength: FREE_TEXT_MAX, multiline: true });
}

/** "Jane Smith" → "J*** S***", "Maria de la Cruz" → "M*** C***": initials of the first and last word. */
export function maskFullName(value: string): string {
  const words = value.split(' ').filter((word) => word.length > 0);
  if (words.length < 2) return firstCharMask(value);
  return `${firstCharMask(words[0]!)} ${firstCharMask(words[words.length - 1]!)}`;
}

/** "The quick fox…" (42 characters) → "T*** (42 chars)". */
export function maskFreeText(value: string): string {
  const length = codePointLength(value);
  return `${firstCharMask(value)} (${length} ${length === 1 ? 'char' : 'chars'})`;
}
