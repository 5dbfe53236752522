/**
 * Pages of a PDF, counted as its page objects: every `/Type /Page` dictionary entry, but not the
 * `/Type /Pages` nodes of the page tree (design "Worker"). Chromium (Skia) writes object
 * dictionaries uncompressed and page content compressed, so a text on the page cannot add a false
 * match. A PDF name ends at whitespace or a delimiter, hence the lookahead.
 */
const PAGE_OBJECT = /\/Type\s*\/Page(?=[\s/<>[\]()%{}]|$)/g;

export function countPdfPages(pdf: Buffer): number {
  // latin1 maps every byte to one char, so binary streams cannot break the scan.
  return pdf.toString('latin1').match(PAGE_OBJECT)?.length ?? 0;
}

/** Whether `bytes` starts like a PDF file (`%PDF-`). */
export function looksLikePdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-';
}
