import { VAULT_DOCUMENT_MAX_BYTES, type VaultDocumentSource } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import { codePointLength } from '@svc/pii-detect';
import type { VaultDeps } from '../deps';
import { decodeUtf8Text, readUploadedFile } from '../documents/uploaded-file';
import { htmlToText } from './html-text';
import { PDF_READ_LIMITS, readPdfPages } from './pdf-pages';

/** bytes: largest text, Markdown or HTML document upload (PDFs may have VAULT_DOCUMENT_MAX_BYTES). */
export const TEXT_DOCUMENT_MAX_BYTES = 1024 * 1024;
/** Code points of text one extraction reads over all pages (a 50-page PDF of dense text fits). */
export const EXTRACTION_MAX_CHARACTERS = 1_000_000;

/** What an extraction records about the document it read (never the text itself). */
export interface DocumentFacts {
  kind: 'text' | 'upload';
  uploadId?: string;
  contentType: string;
  pages: number;
  characters: number;
}

export interface DocumentPages {
  facts: DocumentFacts;
  /** Page texts in order (page 1 first); held in memory only while candidates are extracted. */
  pages: string[];
}

/**
 * The pages of a document to extract from (docs/decisions.md VE1): text in the body is one page;
 * an upload is read from object storage after the uploads service resolved it — a PDF page by page
 * (pdf.js), text/plain and text/markdown as one page of UTF-8 text, text/html as one page of its
 * text (html-text.ts). Any other content type, oversized or unreadable input: 422.
 */
export async function readDocumentPages(
  deps: Pick<VaultDeps, 'uploads' | 'store'>,
  clientId: string,
  source: VaultDocumentSource,
): Promise<DocumentPages> {
  if ('text' in source) {
    return { facts: textFacts('text', 'text/plain', source.text), pages: [source.text] };
  }
  const { file, bytes } = await readUploadedFile(deps, clientId, source.upload_id, (type) =>
    type === 'application/pdf' ? VAULT_DOCUMENT_MAX_BYTES : TEXT_DOCUMENT_MAX_BYTES,
  );
  const contentType = file.content_type;
  if (contentType === 'application/pdf') {
    const pages = await readPdfPages(bytes, {
      ...PDF_READ_LIMITS,
      maxCharacters: EXTRACTION_MAX_CHARACTERS,
    });
    const characters = pages.reduce((sum, page) => sum + codePointLength(page), 0);
    return {
      facts: {
        kind: 'upload',
        uploadId: file.upload_id,
        contentType,
        pages: Math.max(pages.length, 1),
        characters,
      },
      // A PDF without pages still has one (empty) page to report.
      pages: pages.length === 0 ? [''] : pages,
    };
  }
  if (contentType !== 'text/plain' && contentType !== 'text/markdown' && contentType !== 'text/html') {
    throw new ValidationError(
      `upload ${file.upload_id} is ${contentType}: documents are PDF, text/plain, text/markdown or text/html`,
    );
  }
  const raw = decodeUtf8Text(bytes, `upload ${file.upload_id}`);
  const text = contentType === 'text/html' ? htmlToText(raw) : raw;
  const facts = { ...textFacts('upload', contentType, text), uploadId: file.upload_id };
  return { facts, pages: [text] };
}

function textFacts(kind: 'text' | 'upload', contentType: string, text: string): DocumentFacts {
  const characters = codePointLength(text);
  if (characters > EXTRACTION_MAX_CHARACTERS) {
    throw new ValidationError(`document text is longer than ${EXTRACTION_MAX_CHARACTERS} characters`);
  }
  return { kind, contentType, pages: 1, characters };
}
