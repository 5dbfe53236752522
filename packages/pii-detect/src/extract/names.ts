import type { CandidateType } from './candidate';
import { type Token, tokens } from './lines';

/** A found piece of text: value and UTF-16 offsets relative to the text it was found in. */
export interface Piece {
  value: string;
  start: number;
  end: number;
}

export interface NamePart extends Piece {
  type: Extract<CandidateType, 'full_name' | 'given_name' | 'middle_name' | 'family_name'>;
}

/** Salutations and titles dropped before a name (lower case, without a trailing dot). */
const TITLES = new Set('mr mrs ms miss mx dr prof sir herr herrn frau fr hr mme mlle m'.split(' '));

/** Lower-case particles that belong to a family name ("van Beethoven", "von der Leyen"). */
const PARTICLES = new Set('von van de der den da di du del la le zu ten ter'.split(' '));

/** Legal forms and words that make a line an organisation, not a person. */
const COMPANY_WORDS = new Set(
  (
    'gmbh ag kg ohg se ug ev mbh kgaa ltd limited llc llp inc plc corp corporation co sa sas sarl bv ' +
    'nv spa sl bank sparkasse volksbank university universität'
  ).split(' '),
);

const NAME_TOKEN = /^(?:\p{Lu}[\p{L}\p{M}'’-]*\.?|\p{Lu}\.)$/u;
const MAX_NAME_LENGTH = 100;
const MAX_NAME_TOKENS = 6;

const bare = (token: string) => token.toLowerCase().replace(/[.,]/g, '');

/** Whether `text` names an organisation: one of its words is a legal form ("GmbH", "Ltd.") or ends in "bank". */
export function isCompanyLike(text: string): boolean {
  return tokens(text).some((token) => {
    const word = bare(token.text);
    return COMPANY_WORDS.has(word) || (word.length > 4 && word.endsWith('bank'));
  });
}

/**
 * A person's name in `text` (a label's value or a whole line): titles dropped, then 1 to 6 words
 * that each start with a capital letter (initials "A." allowed), or lower-case family-name particles
 * between them; no digits, not an organisation. "Doe, Jane" (family name first, as forms and
 * German "Name, Vorname" fields write it) is read as given "Jane", family "Doe".
 *
 * Returns the full name (verbatim, or "Jane Doe" for the comma form) and, for two or more words,
 * the parts: given = first word, family = last word with the particles before it, middle = the rest.
 * Null when the text is not name-shaped.
 */
export function parseName(text: string, options: { minWords?: number } = {}): NamePart[] | null {
  if (text.length > MAX_NAME_LENGTH || /\d/.test(text)) return null;
  const comma = text.indexOf(',');
  if (comma !== -1) return parseCommaName(text, comma);
  const words = nameWords(tokens(text));
  if (words === null || words.length < (options.minWords ?? 1)) return null;
  const first = words[0];
  const last = words[words.length - 1];
  if (first === undefined || last === undefined) return null;
  const full: NamePart = {
    type: 'full_name',
    value: text.slice(first.start, last.end),
    start: first.start,
    end: last.end,
  };
  if (words.length === 1) return [full];
  let familyFrom = words.length - 1;
  while (familyFrom > 1 && PARTICLES.has(words[familyFrom - 1]?.text ?? '')) familyFrom -= 1;
  const family = words[familyFrom];
  const parts: NamePart[] = [
    full,
    { type: 'given_name', value: first.text, start: first.start, end: first.end },
  ];
  const middle = words.slice(1, familyFrom);
  const middleFirst = middle[0];
  const middleLast = middle[middle.length - 1];
  if (middleFirst !== undefined && middleLast !== undefined) {
    parts.push({
      type: 'middle_name',
      value: text.slice(middleFirst.start, middleLast.end),
      start: middleFirst.start,
      end: middleLast.end,
    });
  }
  if (family !== undefined) {
    parts.push({
      type: 'family_name',
      value: text.slice(family.start, last.end),
      start: family.start,
      end: last.end,
    });
  }
  return parts;
}

/** "Doe, Jane" / "Mustermann, Max": the full name becomes "Jane Doe" (spanning the whole text). */
function parseCommaName(text: string, comma: number): NamePart[] | null {
  if (text.indexOf(',', comma + 1) !== -1) return null;
  const familyWords = nameWords(tokens(text.slice(0, comma)));
  const givenWords = nameWords(tokens(text.slice(comma + 1), comma + 1));
  const familyFirst = familyWords?.[0];
  const familyLast = familyWords?.[familyWords.length - 1];
  const givenFirst = givenWords?.[0];
  const givenLast = givenWords?.[givenWords.length - 1];
  if (!familyFirst || !familyLast || !givenFirst || !givenLast) return null;
  const family = text.slice(familyFirst.start, familyLast.end);
  const given = text.slice(givenFirst.start, givenLast.end);
  return [
    { type: 'full_name', value: `${given} ${family}`, start: familyFirst.start, end: givenLast.end },
    { type: 'given_name', value: givenFirst.text, start: givenFirst.start, end: givenFirst.end },
    { type: 'family_name', value: family, start: familyFirst.start, end: familyLast.end },
  ];
}

/** The name's words with leading titles removed, or null when a word is not name-like. */
function nameWords(all: Token[]): Token[] | null {
  let from = 0;
  while (from < all.length - 1 && TITLES.has(bare(all[from]?.text ?? ''))) from += 1;
  const words = all.slice(from);
  if (words.length === 0 || words.length > MAX_NAME_TOKENS) return null;
  if (isCompanyLike(words.map((word) => word.text).join(' '))) return null;
  const ok = words.every(
    (word, index) => NAME_TOKEN.test(word.text) || (index > 0 && PARTICLES.has(word.text)),
  );
  return ok ? words : null;
}
