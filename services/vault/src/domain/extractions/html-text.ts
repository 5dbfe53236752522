/**
 * The text of an HTML document, for the extractors (docs/decisions.md VE1): tags removed, the
 * contents of script, style, template and comments dropped, block ends and `<br>` turned into line
 * breaks (labelled lines such as `<td>IBAN</td><td>DE89…</td>` stay on one line: cells are
 * separated by a tab), and character references decoded. Candidate spans refer to this text.
 * One pass with indexOf, no backtracking regular expression: linear in the document's length.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      out.push(decodeEntities(html.slice(at)));
      break;
    }
    out.push(decodeEntities(html.slice(at, open)));
    // `<` not followed by a letter, `/` or `!` starts no tag (`a < b`): it is text.
    if (!/[A-Za-z/!]/.test(html.charAt(open + 1))) {
      out.push('<');
      at = open + 1;
      continue;
    }
    if (html.startsWith('<!--', open)) {
      at = skipPast(html, '-->', open + 4);
      continue;
    }
    const close = html.indexOf('>', open + 1);
    if (close === -1) break; // an unclosed tag: nothing after it is text
    const tag = tagName(html.slice(open + 1, close));
    at = close + 1;
    if (tag === undefined) continue;
    if (RAW_TEXT_TAGS.has(tag.name) && !tag.closing) {
      at = skipPast(html, `</${tag.name}`, at);
      const end = html.indexOf('>', at);
      at = end === -1 ? html.length : end + 1;
      continue;
    }
    if (tag.name === 'br' || (tag.closing && BLOCK_TAGS.has(tag.name))) out.push('\n');
    else if (tag.closing && (tag.name === 'td' || tag.name === 'th')) out.push('\t');
  }
  return out.join('');
}

/** Elements whose content is not text of the document. */
const RAW_TEXT_TAGS = new Set(['script', 'style', 'template', 'noscript', 'textarea', 'title']);
/** Elements that end a line. */
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'li',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dt',
  'dd',
  'section',
  'article',
  'header',
  'footer',
  'table',
  'ul',
  'ol',
  'address',
  'blockquote',
  'pre',
  'label',
]);

function tagName(inside: string): { name: string; closing: boolean } | undefined {
  const closing = inside.startsWith('/');
  const match = /^[A-Za-z][A-Za-z0-9-]{0,30}/.exec(closing ? inside.slice(1) : inside);
  return match === null ? undefined : { name: match[0].toLowerCase(), closing };
}

/**
 * Index just past the next `marker` (ASCII) from `from`, case-insensitive, or the end. A literal
 * regular expression from lastIndex: a forward scan, never the whole document lowered per call.
 */
function skipPast(html: string, marker: string, from: number): number {
  const pattern = new RegExp(marker.replace(/[-/!]/g, '\\$&'), 'gi');
  pattern.lastIndex = from;
  const found = pattern.exec(html);
  return found === null ? html.length : found.index + marker.length;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** `&amp;`, `&#64;`, `&#x40;` and a few common names; anything else stays as written. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}
