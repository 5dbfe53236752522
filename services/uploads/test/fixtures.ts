import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

/** A real PDF of `pages` blank pages, made with pdf-lib. */
export async function makePdf(pages: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let page = 0; page < pages; page += 1) document.addPage([200, 300]);
  return Buffer.from(await document.save());
}

/** A real image made with sharp (a solid colour). */
export async function makeImage(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp',
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .toFormat(format)
    .toBuffer();
}
