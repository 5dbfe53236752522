/**
 * A one-page PDF form (AcroForm text fields named after vault fields, each beside a printed label),
 * written out by hand: the bench package has no PDF library, and the form is small enough to write
 * directly (objects, then the cross-reference table with each object's byte offset).
 */
export function onePagePdfForm(fieldNames: readonly string[]): Buffer {
  const fieldRefs = fieldNames.map((_, i) => `${5 + i} 0 R`).join(' ');
  const contentsId = 5 + fieldNames.length;
  const labels = fieldNames
    .map((name, i) => `BT /F1 11 Tf 50 ${737 - i * 44} Td (${name.replaceAll('_', ' ')}:) Tj ET`)
    .join('\n');
  const content = `BT /F1 16 Tf 50 790 Td (Application form) Tj ET\n${labels}\n`;
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${fieldRefs}] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 4 0 R >> >> >> >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Annots [${fieldRefs}] /Contents ${contentsId} 0 R /Resources << /Font << /F1 4 0 R >> >> >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ...fieldNames.map(
      (name, i) =>
        `<< /Type /Annot /Subtype /Widget /FT /Tx /T (${name}) /F 4 /P 3 0 R /Rect [190 ${730 - i * 44} 540 ${754 - i * 44}] /DA (/Helv 12 Tf 0 g) >>`,
    ),
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
  ];
  let pdf = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
