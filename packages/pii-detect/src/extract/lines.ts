/** A line of a page: its text (no line break) and the UTF-16 index where it starts in the page. */
export interface Line {
  text: string;
  start: number;
}

/**
 * Lines longer than this are prose or garbage, not form fields or address lines: the line rules
 * (labels, addresses, names) skip them, which also bounds every regular expression's input. The
 * pattern detectors (e-mail, IBAN, card, phone) still scan the whole page.
 */
export const MAX_LINE_LENGTH = 300;

export function splitLines(page: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const newline = page.indexOf('\n', start);
    const end = newline === -1 ? page.length : newline;
    const text = page.charCodeAt(end - 1) === 13 ? page.slice(start, end - 1) : page.slice(start, end);
    lines.push({ text, start });
    if (newline === -1) return lines;
    start = newline + 1;
  }
}

/**
 * Cells of a form line: text separated by a tab, two or more spaces, or " | " (two columns of a
 * form rendered as text: "Name: Jane Doe      Date of birth: 15.03.1984"). Trimmed, empty ones dropped.
 */
export function splitCells(line: Line): Line[] {
  return splitOn(line, /\t+| {2,}|\s\|\s/g);
}

/**
 * Segments of an address line: parts separated by ",", ";", " · ", " • ", " | "
 * ("Musterstraße 12, 10115 Berlin"). Trimmed, empty ones dropped.
 */
export function splitSegments(line: Line): Line[] {
  return splitOn(line, /[,;]|\s[·•|]\s|\t+| {2,}/g);
}

function splitOn(line: Line, separator: RegExp): Line[] {
  const parts: Line[] = [];
  let from = 0;
  const push = (end: number) => {
    const raw = line.text.slice(from, end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text !== '') parts.push({ text, start: line.start + from + lead });
  };
  for (const match of line.text.matchAll(separator)) {
    push(match.index);
    from = match.index + match[0].length;
  }
  push(line.text.length);
  return parts;
}

/** A whitespace-separated word: its text and UTF-16 offsets (shifted by the `offset` given). */
export interface Token {
  text: string;
  start: number;
  end: number;
}

export function tokens(text: string, offset = 0): Token[] {
  const found: Token[] = [];
  for (const match of text.matchAll(/\S+/g)) {
    const start = offset + match.index;
    found.push({ text: match[0], start, end: start + match[0].length });
  }
  return found;
}
