import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@cantoo/fontkit';
import type { PDFDocument } from '@cantoo/pdf-lib';

/**
 * The fonts a filled PDF draws values with, in order of preference. No single free font covers
 * both: Noto Sans has Latin (with Latin Extended-A: Ş, Ł, Ő), Greek and Cyrillic but no CJK;
 * Noto Sans JP has kana and kanji (東京) and Latin-1 but not Latin Extended-A. Both ship in npm
 * packages (SIL OFL 1.1), so nothing depends on the fonts of the machine.
 */
const FONT_FILES = [
  { packageName: '@embedpdf/fonts-latin', file: 'NotoSans-Regular.ttf' },
  { packageName: '@embedpdf/fonts-jp', file: 'NotoSansJP-Regular.otf' },
] as const;

export const FONT_COUNT = FONT_FILES.length;

export interface UnicodeFont {
  /** The font file (embedded subset into each PDF: only the glyphs used). */
  readonly bytes: Uint8Array;
  /** Whether the font draws this code point. */
  covers(codePoint: number): boolean;
}

/** A piece of a value drawn with one font (an index into unicodeFonts()). */
export interface FontRun {
  font: number;
  text: string;
}

let loaded: readonly UnicodeFont[] | undefined;
/** The parsed fonts, by their bytes (see sharedFontkit). */
const parsedFonts = new Map<Uint8Array, ReturnType<typeof fontkit.create>>();

function fontPath(packageName: string, file: string): string {
  // The packages export only their JS entry (dist/index.*); the font files sit in ../fonts. Resolved
  // from this file's own path (not the running script's): the same under tsx and in a bundle.
  return path.join(path.dirname(createRequire(__filename).resolve(packageName)), '..', 'fonts', file);
}

/**
 * The fonts, read from disk once per process (about 5 MB) and kept. The service may call this at
 * start (preloadFillFonts) so the first fill does not pay for it, and a missing font package fails
 * the start rather than a request.
 */
export function unicodeFonts(): readonly UnicodeFont[] {
  if (loaded !== undefined) return loaded;
  loaded = FONT_FILES.map(({ packageName, file }) => {
    const bytes = new Uint8Array(readFileSync(fontPath(packageName, file)));
    const parsed = fontkit.create(bytes);
    if (!('hasGlyphForCodePoint' in parsed)) throw new Error(`${file} is a font collection, not one font`);
    parsedFonts.set(bytes, parsed);
    const coverage = new Map<number, boolean>();
    return {
      bytes,
      covers(codePoint: number) {
        let has = coverage.get(codePoint);
        if (has === undefined) {
          has = parsed.hasGlyphForCodePoint(codePoint);
          coverage.set(codePoint, has);
        }
        return has;
      },
    };
  });
  return loaded;
}

/**
 * fontkit for PDFDocument.registerFontkit that hands back the fonts parsed once per process
 * instead of parsing them again for every document: parsing is most of a one-page fill's time
 * (measured here: a one-page fill went from about 100 ms to 15-50 ms). Safe to share: fontkit decodes tables lazily but synchronously
 * and keeps them read-only; each document makes its own subset (font.createSubset()).
 */
export const sharedFontkit: Parameters<PDFDocument['registerFontkit']>[0] = {
  create(buffer, postscriptName) {
    const parsed = parsedFonts.get(buffer);
    if (parsed !== undefined) return parsed;
    return postscriptName === undefined ? fontkit.create(buffer) : fontkit.create(buffer, postscriptName);
  },
};

/**
 * Splits `text` into runs of one font each: every character takes the first font that has it; a
 * character that fits the current run's font stays in it (spaces and digits do not break a run
 * of kanji). A character no font has goes with the first font (drawn as its empty glyph).
 */
export function splitIntoFontRuns(text: string, fonts: readonly UnicodeFont[]): FontRun[] {
  const runs: FontRun[] = [];
  let current: FontRun | undefined;
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    let font: number;
    if (current !== undefined && fonts[current.font]?.covers(codePoint)) font = current.font;
    else {
      const found = fonts.findIndex((candidate) => candidate.covers(codePoint));
      font = found === -1 ? (current?.font ?? 0) : found;
    }
    if (current !== undefined && current.font === font) current.text += char;
    else {
      current = { font, text: char };
      runs.push(current);
    }
  }
  return runs;
}
