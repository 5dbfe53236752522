/** One page of the JSON result (contracts PdfPageText). */
export interface PageText {
  page: number;
  characters: number;
  text: string;
  truncated: boolean;
}

/**
 * The page texts the JSON result carries: every page, each with its full character count, its text
 * while the result holds fewer than `maxChars` characters in all, then cut (at a code point, never
 * inside a surrogate pair) and empty for the pages after, marked `truncated`. Characters are
 * Unicode code points, as pii-redact counts them (docs/decisions.md K1).
 */
export class PageTextBudget {
  readonly pages: PageText[] = [];
  /** Characters of all pages (the whole text, whatever the result carries). */
  characters = 0;
  truncated = false;
  #left: number;

  constructor(maxChars: number) {
    this.#left = maxChars;
  }

  add(page: number, text: string): void {
    const codePoints = [...text];
    const kept = codePoints.length <= this.#left ? text : codePoints.slice(0, this.#left).join('');
    const cut = kept.length < text.length;
    this.#left -= Math.min(codePoints.length, this.#left);
    this.characters += codePoints.length;
    this.truncated ||= cut;
    this.pages.push({ page, characters: codePoints.length, text: kept, truncated: cut });
  }
}
