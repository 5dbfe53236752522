/**
 * Converts increasing UTF-16 indexes of `text` to code-point offsets, walking the text once in all:
 * a surrogate pair (an emoji, a CJK extension character) is one code point, two UTF-16 units.
 * Each call must pass an index at least as large as the previous one.
 */
export function codePointOffsets(text: string): (index: number) => number {
  let unit = 0;
  let codePoints = 0;
  return (index) => {
    while (unit < index) {
      const code = text.charCodeAt(unit);
      const pair = code >= 0xd800 && code <= 0xdbff && unit + 1 < text.length;
      const next = pair ? text.charCodeAt(unit + 1) : 0;
      unit += pair && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
      codePoints += 1;
    }
    return codePoints;
  };
}

/** Characters as Unicode code points (an emoji is one, not two UTF-16 units). */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** UTF-16 index → code-point offset, for any index order (a prefix table: one pass over the page). */
export function codePointIndex(text: string): (index: number) => number {
  const table = new Uint32Array(text.length + 1);
  let codePoints = 0;
  for (let unit = 0; unit < text.length; unit += 1) {
    table[unit] = codePoints;
    const code = text.charCodeAt(unit);
    const next = text.charCodeAt(unit + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      table[unit + 1] = codePoints;
      unit += 1;
    }
    codePoints += 1;
  }
  table[text.length] = codePoints;
  return (index) => table[index] ?? codePoints;
}
