import { classifySegment } from './address';
import { CONFIDENCE } from './candidate';
import type { Claims } from './claims';
import type { Found } from './found';
import { hasLabel, trimmed } from './labelled';
import { type Line, MAX_LINE_LENGTH, splitSegments } from './lines';
import { isCompanyLike, parseName } from './names';

/** Lines after a CV header's name line in which an e-mail or phone makes it a header. */
const HEADER_CONTACT_LINES = 4;
/**
 * Words of document titles and greetings, never of a name: a guessed name (no label said "Name")
 * containing one is not a name ("Quarterly Report", "Welcome Pack", "Dear Customer").
 */
const NOT_NAME_WORDS = new Set(
  (
    'report form invoice application statement letter agreement contract summary notice confirmation ' +
    'policy certificate quarterly annual monthly document receipt order request offer quote proposal ' +
    'minutes agenda newsletter information welcome dear hello thanks thank customer team department ' +
    'support service services rechnung antrag bescheinigung vertrag formular bestätigung mitteilung ' +
    'kontoauszug angebot kunde kundin abteilung sehr geehrte geehrter liebe lieber'
  ).split(' '),
);

/** Document titles a CV may start with, above the name (lower case). */
const CV_TITLES = new Set(['curriculum vitae', 'lebenslauf', 'resume', 'résumé', 'cv', 'c.v.']);

interface Segment extends Line {
  line: number;
  /** Position among its line's segments. */
  position: number;
}

/**
 * Unlabelled addresses (rule 4 of extractCandidates): within each paragraph (non-empty lines
 * between blank ones), a postcode + city segment (or a lone postcode / US state + ZIP after a
 * city) whose preceding segment is a street with a street word.
 */
export function unlabelledAddresses(lines: readonly Line[], page: string, claims: Claims): Found[] {
  const found: Found[] = [];
  let from = 0;
  while (from < lines.length) {
    let to = from;
    while (to < lines.length && (lines[to]?.text.trim() ?? '') !== '') to += 1;
    if (to > from) found.push(...addressesInParagraph(lines, from, to, page, claims));
    from = to + 1;
  }
  return found;
}

function addressesInParagraph(
  lines: readonly Line[],
  from: number,
  to: number,
  page: string,
  claims: Claims,
): Found[] {
  const segments: Segment[] = [];
  for (let index = from; index < to; index += 1) {
    const line = lines[index];
    if (line === undefined || line.text.length > MAX_LINE_LENGTH) continue;
    for (const [position, segment] of splitSegments(line).entries()) {
      segments.push({ ...segment, line: index, position });
    }
  }
  const kinds = segments.map((segment) => classifySegment(segment, page));
  const found: Found[] = [];
  const confidence = CONFIDENCE.address;
  for (let anchor = 0; anchor < segments.length; anchor += 1) {
    const kind = kinds[anchor];
    if (
      kind === undefined ||
      (kind.kind !== 'postal_city' && kind.kind !== 'state_zip' && kind.kind !== 'postcode')
    )
      continue;
    const needsCity = kind.kind !== 'postal_city';
    const streetAt = anchor - (needsCity ? 2 : 1);
    const street = segments[streetAt];
    const streetKind = kinds[streetAt];
    if (street === undefined || streetKind?.kind !== 'street' || !streetKind.streetWord) continue;
    if (needsCity && kinds[anchor - 1]?.kind !== 'city_like') continue;
    const streetEnd = street.start + street.text.length;
    if (claims.blocks(street.start, streetEnd, null)) continue;
    if (isOrganisation(lines, segments, streetAt, from)) continue;

    found.push({
      type: 'address_line',
      field_name: 'address_line',
      value: street.text,
      start: street.start,
      end: streetEnd,
      confidence,
    });
    const city = segments[anchor - 1];
    if (needsCity && city !== undefined) {
      found.push({
        type: 'city',
        field_name: 'city',
        value: city.text,
        start: city.start,
        end: city.start + city.text.length,
        confidence,
      });
    }
    for (const part of kind.parts) found.push({ ...part, field_name: part.type, confidence });
    const after = kinds[anchor + 1];
    if (after?.kind === 'country')
      for (const part of after.parts) found.push({ ...part, field_name: part.type, confidence });
    if (street.position === 0) found.push(...recipientName(lines, street.line, from));
  }
  return found;
}

/** A letterhead or a company's address: a legal form or "…bank" before the street, up to 3 lines above. */
function isOrganisation(
  lines: readonly Line[],
  segments: readonly Segment[],
  streetAt: number,
  from: number,
): boolean {
  const street = segments[streetAt];
  if (street === undefined) return false;
  for (let index = streetAt - 1; index >= 0 && segments[index]?.line === street.line; index -= 1) {
    if (isCompanyLike(segments[index]?.text ?? '')) return true;
  }
  for (let index = Math.max(from, street.line - 3); index < street.line; index += 1) {
    if (isCompanyLike(lines[index]?.text ?? '')) return true;
  }
  return false;
}

function recipientName(lines: readonly Line[], streetLine: number, from: number): Found[] {
  const line = lines[streetLine - 1];
  if (streetLine - 1 < from || line === undefined) return [];
  return guessedName(trimmed(line), CONFIDENCE.recipientName);
}

/**
 * Rule 5: a name-shaped first line of page 1 (the second, under a "Curriculum Vitae" / "Lebenslauf"
 * title) followed, within 4 lines, by an e-mail or phone.
 */
export function headerName(lines: readonly Line[], contacts: readonly number[]): Found[] {
  let first = lines.findIndex((line) => line.text.trim() !== '');
  // "Curriculum Vitae" / "Lebenslauf" above the name.
  if (CV_TITLES.has(lines[first]?.text.trim().toLowerCase() ?? '')) {
    first = lines.findIndex((line, index) => index > first && line.text.trim() !== '');
  }
  const line = lines[first];
  if (line === undefined || line.text.length > MAX_LINE_LENGTH || hasLabel(line)) return [];
  const last = lines[Math.min(lines.length - 1, first + HEADER_CONTACT_LINES)];
  const limit = last === undefined ? line.start : last.start + last.text.length;
  if (!contacts.some((start) => start > line.start && start <= limit)) return [];
  return guessedName(trimmed(line), CONFIDENCE.headerName);
}

function guessedName(line: Line, confidence: number): Found[] {
  const parts = parseName(line.text, { minWords: 2 });
  if (parts === null || parts.length > 4) return [];
  const words = line.text.toLowerCase().split(/\s+/);
  if (words.some((word) => NOT_NAME_WORDS.has(word.replace(/[.,:]/g, '')))) return [];
  return parts.map((part) => ({
    type: part.type,
    field_name: part.type,
    value: part.value,
    confidence: part.type === 'full_name' ? confidence : CONFIDENCE.guessedNameSplit,
    start: line.start + part.start,
    end: line.start + part.end,
  }));
}
