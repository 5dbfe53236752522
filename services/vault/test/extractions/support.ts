import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { isAppErrorLike } from '../errors';

/** The AppError a call rejects with (status and message); fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (isAppErrorLike(err)) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected a rejection');
}

/** A PDF with one page per entry, each line drawn as text (Helvetica: Latin-1 only). */
export async function textPdf(
  pages: string[][],
  options: { userPassword?: string } = {},
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, index) => {
      page.drawText(line, { x: 50, y: 780 - index * 20, size: 12, font });
    });
  }
  if (options.userPassword !== undefined)
    pdf.encrypt({ userPassword: options.userPassword, ownerPassword: 'owner' });
  return pdf.save();
}

/** A clock the test moves: `now()` is the wall clock plus `offsetMs`. */
export function movableClock(): { now: () => Date; advance(ms: number): void } {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms) {
      offsetMs += ms;
    },
  };
}
