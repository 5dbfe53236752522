/**
 * Marked regions of a Markdown document: `<!-- generated:NAME -->` … `<!-- /generated:NAME -->`.
 * Everything between the two markers is replaced; everything outside is the people's text.
 */

const START = /<!-- generated:([a-z-]+) -->/g;

function markers(name: string): { start: string; end: string } {
  return { start: `<!-- generated:${name} -->`, end: `<!-- /generated:${name} -->` };
}

/** The region names a document marks, in order. */
export function regionNames(document: string): string[] {
  return [...document.matchAll(START)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]));
}

/**
 * `document` with each region's content replaced by `contents[name]`. Throws when a region of
 * `contents` is not marked (once, with its end marker) or the document marks one `contents` lacks,
 * so a renamed or deleted marker fails loudly instead of leaving a stale table.
 */
export function replaceRegions(document: string, contents: Readonly<Record<string, string>>): string {
  const marked = regionNames(document);
  const unknown = marked.filter((name) => !Object.hasOwn(contents, name));
  if (unknown.length > 0) throw new Error(`document marks unknown generated regions: ${unknown.join(', ')}`);
  let out = document;
  for (const [name, content] of Object.entries(contents)) {
    const { start, end } = markers(name);
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from || out.indexOf(start, from + 1) >= 0) {
      throw new Error(`document must mark region "${name}" once: ${start} … ${end}`);
    }
    out = `${out.slice(0, from + start.length)}\n\n${content}\n\n${out.slice(to)}`;
  }
  return out;
}
