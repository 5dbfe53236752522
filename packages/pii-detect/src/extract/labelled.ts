import { classifySegment, readAddress } from './address';
import { CONFIDENCE } from './candidate';
import type { Claims } from './claims';
import { type DateOrder, dateOrderHint, parseDateAt } from './dates';
import { readLabelledField, readPostalCity } from './fields';
import type { Found } from './found';
import {
  BARE_LABEL,
  endsLikeLabel,
  type LabelTarget,
  lookupLabel,
  MAX_LABEL_LENGTH,
  MAX_LABEL_WORDS,
} from './labels';
import { type Line, MAX_LINE_LENGTH, splitCells, splitSegments } from './lines';

/** Lines an "Address:" label's block may continue over. */
const MAX_ADDRESS_LINES = 4;

interface LabelMatch {
  target: LabelTarget;
  /** The value after the label, trimmed; null when nothing follows it in the cell. */
  value: Line | null;
  /** A date order the label states ("Date of birth (DD/MM/YYYY)"). */
  order?: DateOrder;
}

/** The label that starts `cell` ("Label: value", bare "IBAN …"), or null. */
function labelAt(cell: Line): LabelMatch | null {
  const text = cell.text;
  const colon = text.slice(0, MAX_LABEL_LENGTH + 1).search(/[:：]/);
  if (colon > 0) {
    const label = text.slice(0, colon);
    const target = lookupLabel(label);
    if (target !== undefined)
      return { target, value: valueAfter(cell, colon + 1), order: dateOrderHint(label) };
  }
  const bare = BARE_LABEL.exec(text);
  if (bare !== null) {
    const target = lookupLabel(bare[1] ?? '');
    if (target !== undefined) return { target, value: valueAfter(cell, bare[0].length) };
  }
  // A cell that is only a label ("Date of birth" | "15/03/1984" in two columns).
  const whole = lookupLabel(text);
  return whole === undefined ? null : { target: whole, value: null };
}

function valueAfter(cell: Line, from: number): Line | null {
  const rest = cell.text.slice(from);
  const text = rest.trim();
  if (text === '') return null;
  return { text, start: cell.start + from + (rest.length - rest.trimStart().length) };
}

export /**
 * A cell holding several "Label: value" pairs joined by single spaces (a PDF reader's rendering
 * of form columns: "Name: Jane Doe Date of birth: 15.03.1984") is cut before each later label: at
 * every colon, the longest run of words before it that is a known label starts a new cell. Work per
 * colon is bounded: the word before it must end some label (endsLikeLabel), then at most
 * MAX_LABEL_WORDS word starts within MAX_LABEL_LENGTH characters are looked up.
 */
function splitAtInnerLabels(cell: Line): Line[] {
  const text = cell.text;
  const parts: Line[] = [];
  let from = 0;
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    const floor = Math.max(from, colon - MAX_LABEL_LENGTH);
    let start = wordStartBefore(text, colon, floor);
    if (start === null || !endsLikeLabel(text.slice(start, colon))) continue;
    let labelStart = -1;
    for (let words = 0; words < MAX_LABEL_WORDS && start !== null; words += 1) {
      // At the piece's own start the label is its own ("First name:" → no cut, not "name:"); a
      // later label starts with a letter (lookupLabel would skip "15.03.1984 " before "E-mail").
      const eligible = start === from || /\p{L}/u.test(text.charAt(start));
      if (eligible && lookupLabel(text.slice(start, colon)) !== undefined) labelStart = start;
      start = start === from ? null : wordStartBefore(text, start, floor);
    }
    if (labelStart <= from) continue;
    const before = text.slice(from, labelStart).trimEnd();
    if (before !== '') parts.push({ text: before, start: cell.start + from });
    from = labelStart;
  }
  parts.push({ text: text.slice(from), start: cell.start + from });
  return parts;
}

/**
 * Start of the word that ends before `end` (spaces before `end` skipped), not below `floor`; null
 * when there is none or it would start below `floor` (cut off by the label length bound).
 */
function wordStartBefore(text: string, end: number, floor: number): number | null {
  let at = end;
  while (at > floor && text.charCodeAt(at - 1) === 32) at -= 1;
  if (at === floor) return null;
  while (at > floor && text.charCodeAt(at - 1) !== 32) at -= 1;
  return at > 0 && at === floor && text.charCodeAt(at - 1) !== 32 ? null : at;
}

export const hasLabel = (line: Line) => {
  const first = splitCells(line)[0];
  return first !== undefined && labelAt(first) !== null;
};

export function labelledInLine(lines: readonly Line[], index: number, page: string, claims: Claims): Found[] {
  const line = lines[index];
  if (line === undefined) return [];
  const cells = splitCells(line).flatMap(splitAtInnerLabels);
  const found: Found[] = [];
  for (let position = 0; position < cells.length; position += 1) {
    const cell = cells[position];
    const match = cell === undefined ? null : labelAt(cell);
    if (match === null) continue;
    let value = match.value;
    const nextCell = cells[position + 1];
    if (value === null && nextCell !== undefined && labelAt(nextCell) === null) {
      value = nextCell;
      position += 1;
    }
    const nextLine = lines[index + 1];
    const valueOnNextLine =
      value === null &&
      position === cells.length - 1 &&
      nextLine !== undefined &&
      nextLine.text.length <= MAX_LINE_LENGTH &&
      nextLine.text.trim() !== '' &&
      !hasLabel(nextLine);
    const { target } = match;

    if (target.kind === 'address') {
      found.push(...labelledAddress(lines, index, value, page, claims));
      continue;
    }
    if (value === null && valueOnNextLine && nextLine !== undefined) value = trimmed(nextLine);
    if (value === null) continue;
    const end = value.start + value.text.length;
    if (target.kind === 'ignore') claims.claim(value.start, end, null);
    if (target.kind === 'postal_city') {
      claims.claim(value.start, end, 'postal_code');
      found.push(...readPostalCity(value, page));
    }
    if (target.kind === 'field') {
      claims.claim(value.start, end, target.type);
      found.push(...readLabelledField(target, value, match.order));
    }
  }
  return found;
}

export function trimmed(line: Line): Line {
  const lead = line.text.length - line.text.trimStart().length;
  return { text: line.text.trim(), start: line.start + lead };
}

/** "Address: Musterstraße 12, 10115 Berlin" and the lines below it that read as address parts. */
function labelledAddress(
  lines: readonly Line[],
  index: number,
  value: Line | null,
  page: string,
  claims: Claims,
): Found[] {
  const segments = value === null ? [] : splitSegments(value);
  for (let next = index + 1; next <= index + MAX_ADDRESS_LINES; next += 1) {
    const line = lines[next];
    if (line === undefined || line.text.trim() === '' || line.text.length > MAX_LINE_LENGTH || hasLabel(line))
      break;
    const more = splitSegments(line);
    if (more.some((segment) => classifySegment(segment, page).kind === 'other')) break;
    segments.push(...more);
  }
  const first = segments[0];
  const last = segments[segments.length - 1];
  if (first === undefined || last === undefined) return [];
  claims.claim(first.start, last.start + last.text.length, 'address_line');
  return readAddress(segments, page).parts.map((part) => ({
    ...part,
    confidence: CONFIDENCE.labelledAddress,
  }));
}

/** "born on 15 March 1984", "geboren am 15.03.1984", "geb. 15.03.1984". */
const BORN = /(?<![\p{L}\p{N}])(?:born(?: on)?|geboren am|geb\.)\s{1,3}/giu;

export function bornPhrases(line: Line): Found[] {
  const found: Found[] = [];
  for (const match of line.text.matchAll(BORN)) {
    const from = match.index + match[0].length;
    const date = parseDateAt(line.text.slice(from));
    if (date === null) continue;
    found.push({
      type: 'date_of_birth',
      field_name: 'date_of_birth',
      value: date.iso,
      confidence: date.ambiguous ? CONFIDENCE.bornPhraseAmbiguousDate : CONFIDENCE.bornPhrase,
      start: line.start + from,
      end: line.start + from + date.length,
    });
  }
  return found;
}
