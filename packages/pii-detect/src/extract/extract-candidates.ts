import { codePointIndex } from '../code-points';
import { type DetectedKind, scanPii } from '../scan-pii';
import { type Candidate, type CandidateType, CONFIDENCE } from './candidate';
import { Claims } from './claims';
import { compactUpper } from './fields';
import type { Found } from './found';
import { bornPhrases, labelledInLine } from './labelled';
import { headerName, unlabelledAddresses } from './layout';
import { MAX_LINE_LENGTH, splitLines } from './lines';

const TYPE_OF: Readonly<Record<DetectedKind, CandidateType>> = {
  email: 'email',
  iban: 'iban',
  card: 'payment_card',
  phone: 'phone',
};

/**
 * Proposes vault field candidates from a document's pages (plain text, one string per page).
 * Deterministic; linear in the text apart from per-line work on lines of at most MAX_LINE_LENGTH.
 *
 * Rules (confidences in candidate.ts CONFIDENCE):
 * 1. Labelled fields, English and German (labels.ts): "Label: value", "Label   value" (form
 *    columns), the value on the next line when the label's line ends with it, bare "IBAN …",
 *    "Tel. …", "DOB …". Each type's value parsed by its rule (fields.ts); names split into parts.
 *    "Address:" takes the value and up to 4 following lines that read as address parts.
 * 2. Unlabelled e-mail, IBAN (mod-97), payment card (Luhn + issuer) and phone numbers via the
 *    pattern detectors, except inside values of "ignore" labels (order no., fax, BIC …); cards and
 *    phones also not inside the value of a label of another type (a tax number is not a phone).
 * 3. "born on 15 March 1984", "geb. 15.03.1984" in running text → date_of_birth. Other dates are
 *    never proposed (an invoice date is not a birth date).
 * 4. Unlabelled postal addresses: a street line with a street word followed by a postcode + city
 *    (same line after a comma, or the next line), plus a country line; organisations' addresses
 *    (a legal form such as GmbH/Ltd or "…bank" on the lines above, a letterhead) are skipped; a
 *    name-shaped line just above the street is proposed as the recipient's name.
 * 5. A CV-style header: a name-shaped first line of page 1 (below a "Curriculum Vitae" title)
 *    with an e-mail or phone number in the next lines.
 *
 * Values: dates ISO `YYYY-MM-DD`; IBAN compact upper case; card digits only; country ISO alpha-2;
 * passport number upper case; everything else as written (phones too: the vault normalises them).
 * Duplicates (same type and value) are merged: the highest confidence (and its field name), the
 * first span. Sorted by page, then span.
 */
export function extractCandidates(pages: readonly string[]): Candidate[] {
  const all: { found: Found; page: number; toCodePoint: (index: number) => number }[] = [];
  pages.forEach((page, index) => {
    const toCodePoint = codePointIndex(page);
    for (const found of extractPage(page, index === 0)) all.push({ found, page: index + 1, toCodePoint });
  });

  const merged = new Map<string, Candidate>();
  for (const { found, page, toCodePoint } of all) {
    const candidate: Candidate = {
      field_name: found.field_name,
      type: found.type,
      value: found.value,
      confidence: found.confidence,
      page,
      span: { start: toCodePoint(found.start), end: toCodePoint(found.end) },
    };
    const key = `${found.type}\u0000${found.value}`;
    const seen = merged.get(key);
    if (seen === undefined) {
      merged.set(key, candidate);
      continue;
    }
    const first = before(candidate, seen) ? candidate : seen;
    const best = candidate.confidence > seen.confidence ? candidate : seen;
    merged.set(key, { ...best, page: first.page, span: first.span });
  }
  return [...merged.values()].sort(
    (a, b) =>
      a.page - b.page ||
      a.span.start - b.span.start ||
      a.span.end - b.span.end ||
      a.type.localeCompare(b.type) ||
      a.value.localeCompare(b.value),
  );
}

const before = (a: Candidate, b: Candidate) =>
  a.page < b.page || (a.page === b.page && a.span.start < b.span.start);

function extractPage(page: string, firstPage: boolean): Found[] {
  const found: Found[] = [];
  const claims = new Claims(page.length);
  const lines = splitLines(page);

  lines.forEach((line, index) => {
    if (line.text.length > MAX_LINE_LENGTH) return;
    found.push(...labelledInLine(lines, index, page, claims));
    found.push(...bornPhrases(line));
  });
  const detections = scanPii(page);
  for (const { kind, span } of detections) {
    const type = TYPE_OF[kind];
    // A valid IBAN and an e-mail address are unmistakable: only an "ignore" label's value hides them
    // ("Account number: DE89 …" is still an IBAN); cards and phones are mere digit runs and yield
    // to any label of another type ("Tax ID: 123 456 7890" is not a phone number).
    const strong = kind === 'iban' || kind === 'email';
    if (claims.blocks(span.start, span.end, strong ? 'ignored-only' : type)) continue;
    const text = page.slice(span.start, span.end);
    found.push({
      type,
      field_name: type,
      value: kind === 'iban' ? compactUpper(text) : kind === 'card' ? text.replace(/\D/g, '') : text,
      confidence: CONFIDENCE[kind],
      start: span.start,
      end: span.end,
    });
  }
  found.push(...unlabelledAddresses(lines, page, claims));
  if (firstPage) {
    const contacts = detections
      .filter((d) => d.kind === 'email' || d.kind === 'phone')
      .map((d) => d.span.start);
    found.push(...headerName(lines, contacts));
  }
  return found;
}
