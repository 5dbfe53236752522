import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

/**
 * Real files made by the tests themselves (the issue: "on real files the tests generate"): a PDF
 * with pdf-lib, images with sharp, CSV text.
 */

/** A PDF with one page per entry, each page showing its text. */
export async function makePdf(pages: readonly string[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = document.addPage([595, 842]);
    page.drawText(text, { x: 50, y: 780, size: 14, font });
  }
  return Buffer.from(await document.save());
}

/** A `width`×`height` image with a gradient-ish fill, in the given format. */
export function makeImage(format: 'png' | 'jpeg' | 'webp', width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="orange"/></svg>`,
        ),
      },
    ])
    .toFormat(format)
    .toBuffer();
}

/** A CSV with a header and `rows` rows: id (integer), price (number), active (boolean), day (date), name (string with empties). */
export function makeCsv(rows: number): Buffer {
  const lines = ['id,price,active,day,name'];
  for (let i = 1; i <= rows; i++) {
    const day = `2026-01-${String((i % 28) + 1).padStart(2, '0')}`;
    const name = i % 10 === 0 ? '' : `"Customer ${i % 500}, Ltd"`;
    lines.push(`${i},${(i * 1.25).toFixed(2)},${i % 2 === 0 ? 'true' : 'false'},${day},${name}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}
