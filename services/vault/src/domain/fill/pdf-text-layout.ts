import { type FontRun, splitIntoFontRuns, type UnicodeFont } from './unicode-fonts';

/** A widget's rectangle in the page's default user space (points). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Alignment = 'left' | 'center' | 'right';

export interface FieldLook {
  multiline: boolean;
  alignment: Alignment;
  /** From the field's /DA (`/Helv 10 Tf`); undefined or 0 = auto size, as in viewers. */
  fontSize: number | undefined;
  /** A comb field's cell count (its /MaxLen): one character per cell, as on paper forms. */
  combCells?: number | undefined;
}

/** A run placed on the page: its baseline starts at (x, y). */
export interface PlacedRun extends FontRun {
  x: number;
  y: number;
  size: number;
}

/** Width of one run at a size, by the embedded font (pdf-lib's widthOfTextAtSize). */
export type MeasureRun = (run: FontRun, size: number) => number;

/** points: inside the widget's border, as viewers lay out a text field (2 pt). */
const PADDING = 2;
/** points: auto size starts here (viewers' usual cap) and never goes below MIN_SIZE. */
const MAX_AUTO_SIZE = 12;
const MIN_SIZE = 4;
const LINE_HEIGHT = 1.2;
/** em: baseline sits this far below the vertical centre of a one-line field (Noto's x-height/2). */
const BASELINE_DROP = 0.35;

/**
 * Lays a value out in a text field's box the way a viewer shows a filled field: one line (line
 * breaks become spaces) shrunk to fit the width, or wrapped lines for a multiline field, shrunk
 * until they fit the height. The value is never cut: at MIN_SIZE it may overflow the box, since a
 * shortened IBAN or name would be wrong, not just ugly.
 */
export function layoutValue(
  value: string,
  box: Box,
  look: FieldLook,
  fonts: readonly UnicodeFont[],
  measure: MeasureRun,
): PlacedRun[] {
  const width = Math.max(box.width - 2 * PADDING, 1);
  const height = Math.max(box.height - 2 * PADDING, 1);
  // Widths at size 1, memoised: a font's layout (shaping) is slow for a large CJK font, and
  // wrapping asks for the same words again at every size tried. Widths are taken as additive
  // (kerning across a word boundary ignored): a fraction of a point, inside the padding.
  const widths = new Map<string, number>();
  const textWidth = (text: string, size: number) => {
    let atOne = widths.get(text);
    if (atOne === undefined) {
      atOne = splitIntoFontRuns(text, fonts).reduce((sum, run) => sum + measure(run, 1), 0);
      widths.set(text, atOne);
    }
    return atOne * size;
  };
  const given = look.fontSize !== undefined && look.fontSize > 0 ? look.fontSize : undefined;

  const chars = [...value];
  if (look.combCells !== undefined && look.combCells > 0 && chars.length <= look.combCells) {
    return layoutComb(chars, box, look.combCells, given, fonts, measure);
  }

  if (!look.multiline) {
    const line = value.replace(/[\r\n\t]+/g, ' ');
    let size = given ?? Math.min(MAX_AUTO_SIZE, height / LINE_HEIGHT);
    const atOne = textWidth(line, 1);
    if (atOne * size > width) size = width / atOne;
    size = Math.max(size, MIN_SIZE);
    const y = box.y + box.height / 2 - size * BASELINE_DROP;
    return placeLine(line, alignedX(box, width, atOne * size, look.alignment), y, size, fonts, measure);
  }

  let size = given ?? MAX_AUTO_SIZE;
  let lines = wrap(value, width, size, textWidth);
  while (lines.length * size * LINE_HEIGHT > height && size > MIN_SIZE) {
    size = Math.max(MIN_SIZE, size - 0.5);
    lines = wrap(value, width, size, textWidth);
  }
  const placed: PlacedRun[] = [];
  lines.forEach((line, index) => {
    const y = box.y + box.height - PADDING - size * (index + 1) * LINE_HEIGHT + size * (LINE_HEIGHT - 1);
    const x = alignedX(box, width, textWidth(line, size), look.alignment);
    placed.push(...placeLine(line, x, y, size, fonts, measure));
  });
  return placed;
}

/** One character centred in each cell (cells span the whole box: no padding, as viewers draw combs). */
function layoutComb(
  chars: string[],
  box: Box,
  cells: number,
  given: number | undefined,
  fonts: readonly UnicodeFont[],
  measure: MeasureRun,
): PlacedRun[] {
  const cell = box.width / cells;
  const widthAtOne = (char: string) =>
    splitIntoFontRuns(char, fonts).reduce((sum, run) => sum + measure(run, 1), 0);
  const widest = Math.max(...chars.map(widthAtOne));
  let size = given ?? Math.min(MAX_AUTO_SIZE, (box.height - 2 * PADDING) / LINE_HEIGHT);
  if (widest * size > cell) size = cell / widest;
  size = Math.max(size, MIN_SIZE);
  const y = box.y + box.height / 2 - size * BASELINE_DROP;
  return chars.flatMap((char, index) => {
    const x = box.x + index * cell + (cell - widthAtOne(char) * size) / 2;
    return placeLine(char, x, y, size, fonts, measure);
  });
}

function alignedX(box: Box, width: number, lineWidth: number, alignment: Alignment): number {
  if (alignment === 'center') return box.x + PADDING + (width - lineWidth) / 2;
  if (alignment === 'right') return box.x + PADDING + width - lineWidth;
  return box.x + PADDING;
}

function placeLine(
  line: string,
  startX: number,
  y: number,
  size: number,
  fonts: readonly UnicodeFont[],
  measure: MeasureRun,
): PlacedRun[] {
  let x = startX;
  return splitIntoFontRuns(line, fonts).map((run) => {
    const placed = { ...run, x, y, size };
    x += measure(run, size);
    return placed;
  });
}

/**
 * Greedy word wrap of each paragraph; a word wider than the line (or a run of CJK, which has no
 * spaces) breaks between characters.
 */
function wrap(
  value: string,
  width: number,
  size: number,
  textWidth: (text: string, size: number) => number,
): string[] {
  const lines: string[] = [];
  for (const paragraph of value.split(/\r\n|\r|\n/)) {
    let line = '';
    let lineWidth = 0;
    const breakLine = () => {
      if (line.trim() !== '') lines.push(line.trimEnd());
      line = '';
      lineWidth = 0;
    };
    for (const token of paragraph.split(/(\s+)/)) {
      if (token === '') continue;
      const tokenWidth = textWidth(token, size);
      if (lineWidth + tokenWidth <= width) {
        line += token;
        lineWidth += tokenWidth;
        continue;
      }
      breakLine();
      if (/^\s+$/.test(token)) continue;
      if (tokenWidth <= width) {
        line = token;
        lineWidth = tokenWidth;
        continue;
      }
      for (const char of token) {
        const charWidth = textWidth(char, size);
        if (line !== '' && lineWidth + charWidth > width) breakLine();
        line += char;
        lineWidth += charWidth;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
