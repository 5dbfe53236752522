import { ValidationError } from '@svc/errors';
import { PDFDocument } from 'pdf-lib';
import { storedMeasure } from '../probe';

/** Number of pages of a PDF; 422 when pdf-lib cannot parse it. Encrypted PDFs are counted too. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  try {
    const document = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    return document.getPageCount();
  } catch {
    throw new ValidationError('content is not a readable PDF');
  }
}

/** pdfPageProbe's measure: the stored PDF, read back whole (pdf-lib takes a buffer). */
export default storedMeasure(async (bytes) => ({ pages: await pdfPageCount(bytes) }));
