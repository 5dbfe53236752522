import {
  EncryptedPDFError,
  type PDFDocument,
  type PDFFont,
  type PDFPage,
  type PDFTextField,
  PDFDocument as PdfDocuments,
  PDFTextField as PdfTextFields,
  rgb,
  TextAlignment,
} from '@cantoo/pdf-lib';
import { VAULT_FIELD_NAME_PATTERN } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import { type Alignment, type Box, type FieldLook, layoutValue } from './pdf-text-layout';
import type { FillReportBuilder } from './report';
import { sharedFontkit, splitIntoFontRuns, unicodeFonts } from './unicode-fonts';

/** bytes: largest PDF template (= VAULT_DOCUMENT_MAX_BYTES, the upload limit). */
export const PDF_TEMPLATE_MAX_BYTES = 10 * 1024 * 1024;
/** A form is a few pages; more is a document this engine is not for (and costs time to parse). */
export const PDF_TEMPLATE_MAX_PAGES = 50;
/** bytes: the PDF header may follow up to 1 KiB of junk (PDF 32000-1 annex H, as readers accept). */
const HEADER_WINDOW = 1024;

/** A text field the template asks to fill, with the places it is shown. */
interface AskedField {
  field: PDFTextField;
  name: string;
  widgets: { page: PDFPage; box: Box; look: FieldLook }[];
}

/**
 * The vault field a form field names: its full name when that is a vault field name, else the
 * last part of a hierarchical name (`applicant.iban`, or `form1[0].page1[0].iban[0]` as Acrobat
 * and XFA designers write them). Case-sensitive: `IBAN` names no vault field.
 */
export function vaultFieldNameOf(fullName: string): string | undefined {
  if (VAULT_FIELD_NAME_PATTERN.test(fullName)) return fullName;
  const last = fullName
    .split('.')
    .pop()
    ?.replace(/\[\d+\]$/, '');
  return last !== undefined && VAULT_FIELD_NAME_PATTERN.test(last) ? last : undefined;
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEADER_WINDOW));
  return head.includes('%PDF-', 0, 'latin1');
}

/** The template's form fields to fill: throws ValidationError for anything but a readable PDF. */
async function readTemplate(bytes: Uint8Array): Promise<{ doc: PDFDocument; asked: AskedField[] }> {
  if (bytes.byteLength > PDF_TEMPLATE_MAX_BYTES) {
    throw new ValidationError(`template is larger than ${PDF_TEMPLATE_MAX_BYTES} bytes (10 MiB)`);
  }
  if (!hasPdfHeader(bytes)) throw new ValidationError('template is not a PDF');
  let doc: PDFDocument;
  let pages: number;
  try {
    doc = await PdfDocuments.load(bytes, { updateMetadata: false });
    pages = doc.getPageCount();
  } catch (err) {
    if (err instanceof EncryptedPDFError) {
      throw new ValidationError('template PDF is encrypted (it needs a password); upload it without one');
    }
    // The parser is lenient and fails late: a missing catalog or page tree shows up as a
    // TypeError on first use, so everything up to the page count counts as reading.
    throw unreadable();
  }
  if (pages === 0) throw new ValidationError('template is not a readable PDF (it has no pages)');
  if (pages > PDF_TEMPLATE_MAX_PAGES) {
    throw new ValidationError(`template PDF has more than ${PDF_TEMPLATE_MAX_PAGES} pages (${pages})`);
  }
  if (doc.catalog.getAcroForm() === undefined) return { doc, asked: [] };
  try {
    return { doc, asked: askedFields(doc) };
  } catch {
    // A broken form structure (a field without a name, a widget array that is not one …).
    throw unreadable();
  }
}

/**
 * No `cause`: the parser's messages can quote bytes of the document, and a template may hold
 * personal data — nothing of it goes to a log.
 */
function unreadable(): ValidationError {
  return new ValidationError('template is not a readable PDF (damaged or not a PDF)');
}

const DA_FONT_SIZE = /\/[^\s/]+\s+(\d+(?:\.\d+)?)\s+Tf/;

function alignmentOf(field: PDFTextField): Alignment {
  const alignment = field.getAlignment();
  if (alignment === TextAlignment.Center) return 'center';
  if (alignment === TextAlignment.Right) return 'right';
  return 'left';
}

/** The text fields named after vault fields, each with its widgets that sit on a page. */
function askedFields(doc: PDFDocument): AskedField[] {
  const pages = doc.getPages();
  const pageByRef = new Map(pages.map((page) => [page.ref.toString(), page]));
  // Widgets whose /P is missing (allowed by the spec) are found in the pages' /Annots.
  const pageByAnnot = new Map<string, PDFPage>();
  for (const page of pages) {
    for (const ref of page.node.Annots()?.asArray() ?? []) pageByAnnot.set(ref.toString(), page);
  }
  const asked: AskedField[] = [];
  for (const field of doc.getForm().getFields()) {
    if (!(field instanceof PdfTextFields)) continue;
    const name = vaultFieldNameOf(field.getName());
    if (name === undefined) continue;
    const fieldDa = field.acroField.getDefaultAppearance();
    const widgets: AskedField['widgets'] = [];
    for (const widget of field.acroField.getWidgets()) {
      const ref = doc.context.getObjectRef(widget.dict)?.toString() ?? field.ref.toString();
      const page = pageByRef.get(widget.P()?.toString() ?? '') ?? pageByAnnot.get(ref);
      if (page === undefined) continue;
      const rect = widget.getRectangle();
      const box = {
        x: Math.min(rect.x, rect.x + rect.width),
        y: Math.min(rect.y, rect.y + rect.height),
        width: Math.abs(rect.width),
        height: Math.abs(rect.height),
      };
      const size = DA_FONT_SIZE.exec(widget.getDefaultAppearance() ?? fieldDa ?? '')?.[1];
      widgets.push({
        page,
        box,
        look: {
          multiline: field.isMultiline(),
          alignment: alignmentOf(field),
          fontSize: size === undefined ? undefined : Number(size),
          combCells: field.isCombed() ? field.getMaxLength() : undefined,
        },
      });
    }
    if (widgets.length > 0) asked.push({ field, name, widgets });
  }
  return asked;
}

/**
 * Fills an AcroForm: every text field named after an allowed vault field gets its value drawn as
 * page text inside each of its widgets (Unicode fonts embedded as subsets), then the field is
 * removed — flattened: the value is part of the page, reads back as text, and cannot be edited.
 * Every other field (not allowed, unknown, checkboxes, signatures …) is left exactly as it was.
 * With nothing to fill, the template's own bytes come back.
 */
export async function fillPdfForm(template: Uint8Array, report: FillReportBuilder): Promise<Uint8Array> {
  const { doc, asked } = await readTemplate(template);
  const toFill = asked.flatMap((asked) => {
    const value = report.resolve(asked.name);
    return value === undefined ? [] : [{ ...asked, value }];
  });
  if (toFill.length === 0) return template;

  const fonts = unicodeFonts();
  const used = new Set<number>();
  for (const { value } of toFill) for (const run of splitIntoFontRuns(value, fonts)) used.add(run.font);
  doc.registerFontkit(sharedFontkit);
  const embedded = new Map<number, PDFFont>();
  for (const index of [...used].sort((a, b) => a - b)) {
    const font = fonts[index];
    if (font !== undefined) embedded.set(index, await doc.embedFont(font.bytes, { subset: true }));
  }
  const pdfFont = (index: number): PDFFont => {
    const font = embedded.get(index);
    if (font === undefined) throw new Error(`font ${index} was not embedded`);
    return font;
  };

  const form = doc.getForm();
  for (const { field, value, widgets } of toFill) {
    for (const { page, box, look } of widgets) {
      const runs = layoutValue(value, box, look, fonts, (run, size) =>
        pdfFont(run.font).widthOfTextAtSize(run.text, size),
      );
      for (const run of runs) {
        page.drawText(run.text, {
          x: run.x,
          y: run.y,
          size: run.size,
          font: pdfFont(run.font),
          color: rgb(0, 0, 0),
        });
      }
    }
    form.removeField(field);
  }
  // Appearances of the fields left alone stay as the template had them: regenerating them would
  // use a standard font that cannot encode non-Latin text already in the template.
  return doc.save({ updateFieldAppearances: false });
}
