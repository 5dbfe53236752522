import { countPdfPages, looksLikePdf } from './pdf-pages';

const pdf = (body: string) => Buffer.from(`%PDF-1.4\n${body}\n%%EOF`, 'latin1');

describe('countPdfPages', () => {
  it('counts /Type /Page objects and not the /Type /Pages tree node', () => {
    const body = [
      '1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj',
      '2 0 obj <</Type /Pages /Count 2 /Kids [3 0 R 4 0 R]>> endobj',
      '3 0 obj <</Type /Page /Parent 2 0 R>> endobj',
      '4 0 obj <</Type/Page/Parent 2 0 R>> endobj',
    ].join('\n');
    expect(countPdfPages(pdf(body))).toBe(2);
  });

  it('accepts any whitespace or delimiter after the name, and none before it', () => {
    expect(countPdfPages(pdf('<</Type\n/Page>> <</Type /Page\r\n/Parent 1 0 R>> <</Type /Page[0 0]>>'))).toBe(
      3,
    );
  });

  it('does not count names that merely start with Page', () => {
    expect(countPdfPages(pdf('<</Type /PageLabel>> <</Type /Pages>> <</Type /PageX>>'))).toBe(0);
  });

  it('is 0 for bytes that hold no page', () => {
    expect(countPdfPages(Buffer.from([0, 1, 2, 255]))).toBe(0);
  });
});

describe('looksLikePdf', () => {
  it('checks the %PDF- header', () => {
    expect(looksLikePdf(pdf(''))).toBe(true);
    expect(looksLikePdf(Buffer.from('<html>'))).toBe(false);
    expect(looksLikePdf(Buffer.alloc(0))).toBe(false);
  });
});
