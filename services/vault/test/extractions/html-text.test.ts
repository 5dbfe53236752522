import { htmlToText } from '../../src/domain/extractions/html-text';

describe('htmlToText', () => {
  test('tags go, block ends break lines, cells are tab-separated, entities are decoded', () => {
    const html =
      '<html><head><title>Secret title</title><style>p{color:red}</style></head><body>' +
      '<p>Name: <b>Jane</b> Doe</p><!-- a comment with IBAN DE00 --><table><tr><td>IBAN</td><td>DE89&nbsp;3704</td></tr></table>' +
      '<script>var x = "<p>not text</p>";</script>Email:&#32;j&#x40;example.com &amp; more<br>end</body></html>';
    expect(htmlToText(html)).toBe('Name: Jane Doe\nIBAN\tDE89 3704\t\n\nEmail: j@example.com & more\nend');
  });

  test('upper-case raw-text tags and unclosed constructs end the text without hanging', () => {
    expect(htmlToText('a<SCRIPT>x</SCRIPT >b')).toBe('ab');
    expect(htmlToText('a<script>never closed')).toBe('a');
    expect(htmlToText('a<!-- never closed')).toBe('a');
    expect(htmlToText('a < b and <c')).toBe('a < b and ');
    expect(htmlToText('&unknown; &#0; &#xD800;')).toBe('&unknown; &#0; &#xD800;');
  });

  test('linear: many unclosed raw-text tags take no quadratic time', () => {
    const html = '<script>'.repeat(50_000);
    const started = Date.now();
    htmlToText(html);
    htmlToText('<style>x</style>'.repeat(50_000));
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
