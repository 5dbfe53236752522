import { PDFDocument, PDFTextField, TextAlignment } from '@cantoo/pdf-lib';
import { openPdfReader } from '@svc/capabilities';
import { ValidationError } from '@svc/errors';
import { fillTemplate } from './fill-template';
import { PDF_TEMPLATE_MAX_BYTES, PDF_TEMPLATE_MAX_PAGES, vaultFieldNameOf } from './pdf-form';

const VALUES = {
  full_name: 'Zoë Åsa Şahin-Weiß',
  iban: 'DE89370400440532013000',
  city: '東京 / Ærøskøbing',
  date_of_birth: '1990-05-15',
  free_text:
    'Straße am Großen Garten 7, 01219 Dresden. Bitte nur werktags zustellen — 東京都千代田区の住所もあります.',
  secret_field: 'MARKER-SECRET-7731',
};
const known = new Set([...Object.keys(VALUES), 'middle_name']);
const allowed = new Set(['full_name', 'iban', 'city', 'date_of_birth', 'free_text', 'middle_name']);
// secret_field's value is passed by mistake: the engine must still never place it.
const values = new Map(Object.entries(VALUES));

/** A one-page form as a person would make it, with fields named after vault fields. */
async function formTemplate(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const form = doc.getForm();
  const text = (name: string, y: number, options: { width?: number; height?: number } = {}) => {
    const field = form.createTextField(name);
    field.addToPage(page, { x: 150, y, width: options.width ?? 300, height: options.height ?? 20 });
    return field;
  };
  page.drawText('Application form', { x: 50, y: 780, size: 16 });
  text('full_name', 740);
  text('iban', 700).setAlignment(TextAlignment.Right);
  text('applicant.city', 660);
  text('date_of_birth', 620, { width: 40 });
  text('secret_field', 580);
  text('favourite_colour', 540);
  text('middle_name', 500);
  text('Signature Date', 460);
  // A comb field (one character per box, as on paper forms) for the date.
  const born = text('born_on.date_of_birth', 420, { width: 200 });
  born.setMaxLength(10);
  born.enableCombing();
  const notes = text('free_text', 340, { width: 200, height: 100 });
  notes.enableMultiline();
  form.createCheckBox('iban_ok').addToPage(page, { x: 150, y: 300, width: 12, height: 12 });
  return doc.save();
}

async function readText(pdf: Uint8Array): Promise<string> {
  const signal = AbortSignal.timeout(30_000);
  const reader = await openPdfReader(pdf.slice(), signal, { stepTimeoutMs: 20_000, maxHeapMb: 256 });
  try {
    const pages: string[] = [];
    for (let page = 1; page <= reader.pages; page += 1) pages.push(await reader.text(page, signal));
    return pages.join('\f');
  } finally {
    await reader.close();
  }
}

async function rejection(template: Uint8Array): Promise<string> {
  const err = await fillTemplate({ template, contentType: 'application/pdf', values, allowed, known }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).status).toBe(422);
  return (err as ValidationError).message;
}

describe('fillTemplate (PDF AcroForm)', () => {
  let template: Uint8Array;
  beforeAll(async () => {
    template = await formTemplate();
  });

  it('fills the allowed fields with Unicode values that read back as page text, and never the others', async () => {
    const result = await fillTemplate({ template, contentType: 'application/pdf', values, allowed, known });
    expect(result.contentType).toBe('application/pdf');
    expect(result.report).toEqual({
      filled: ['full_name', 'iban', 'city', 'date_of_birth', 'free_text'],
      unknown: ['favourite_colour'],
      not_allowed: ['secret_field'],
      empty: ['middle_name'],
    });

    const text = await readText(result.bytes);
    for (const name of ['full_name', 'iban', 'date_of_birth'] as const) expect(text).toContain(VALUES[name]);
    expect(text).toContain('東京');
    expect(text).toContain('Ærøskøbing');
    // The multiline field wraps: its words are all there, whatever the line breaks.
    for (const word of ['Straße', 'Großen', 'Dresden.', 'werktags', '東京都'])
      expect(text.replace(/\s+/g, ' ')).toContain(word);
    expect(text).not.toContain('MARKER-SECRET');
    expect(Buffer.from(result.bytes).includes('MARKER-SECRET')).toBe(false);
    // Subset fonts keep the document small (the fonts themselves are about 5 MB).
    expect(result.bytes.byteLength).toBeLessThan(200_000);

    // Filled fields are flattened away; the others are still fields, untouched and editable.
    const form = (await PDFDocument.load(result.bytes)).getForm();
    const names = form.getFields().map((field) => field.getName());
    expect(names).not.toEqual(expect.arrayContaining(['full_name']));
    for (const gone of [
      'full_name',
      'iban',
      'applicant.city',
      'date_of_birth',
      'born_on.date_of_birth',
      'free_text',
    ])
      expect(names).not.toContain(gone);
    for (const kept of ['secret_field', 'favourite_colour', 'middle_name', 'Signature Date', 'iban_ok'])
      expect(names).toContain(kept);
    const secret = form.getField('secret_field');
    expect(secret).toBeInstanceOf(PDFTextField);
    expect((secret as PDFTextField).getText()).toBeUndefined();
  });

  it('gives the same document for fills that run at the same time (the parsed fonts are shared)', async () => {
    const fill = () => fillTemplate({ template, contentType: 'application/pdf', values, allowed, known });
    const [first, ...others] = await Promise.all([fill(), fill(), fill()]);
    for (const other of others)
      expect(Buffer.from(other.bytes).equals(Buffer.from(first?.bytes ?? []))).toBe(true);
  });

  it('draws a character no font has as an empty glyph rather than failing', async () => {
    const result = await fillTemplate({
      template,
      contentType: 'application/pdf',
      values: new Map([['full_name', 'Kim 김민준 Ωmega']]),
      allowed,
      known,
    });
    expect(result.report.filled).toEqual(['full_name']);
    const text = await readText(result.bytes);
    expect(text).toContain('Kim');
    expect(text).toContain('Ωmega');
  });

  it('gives the template back as it was when nothing is to be filled', async () => {
    const result = await fillTemplate({
      template,
      contentType: 'application/pdf',
      values: new Map(),
      allowed: new Set(['iban']),
      known,
    });
    expect(Buffer.from(result.bytes).equals(Buffer.from(template))).toBe(true);
    expect(result.report.filled).toEqual([]);
    expect(result.report.empty).toEqual(['iban']);
  });

  it('fills a PDF without a form: nothing, and says so', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const plain = await doc.save();
    const result = await fillTemplate({
      template: plain,
      contentType: 'application/pdf',
      values,
      allowed,
      known,
    });
    expect(result.report).toEqual({ filled: [], unknown: [], not_allowed: [], empty: [] });
    expect(Buffer.from(result.bytes).equals(Buffer.from(plain))).toBe(true);
  });

  it('refuses what is not a PDF, a damaged, encrypted, too long or too large one', async () => {
    expect(await rejection(Buffer.from('Name: {{full_name}}'))).toBe('template is not a PDF');
    expect(await rejection(Buffer.from('%PDF-1.7\nthis is not a PDF at all\n%%EOF'))).toMatch(
      /^template is not a readable PDF/,
    );

    const locked = await PDFDocument.create();
    locked.addPage();
    locked.encrypt({ userPassword: 'secret', ownerPassword: 'owner' });
    expect(await rejection(await locked.save())).toMatch(/^template PDF is encrypted/);

    const long = await PDFDocument.create();
    for (let page = 0; page <= PDF_TEMPLATE_MAX_PAGES; page += 1) long.addPage([100, 100]);
    expect(await rejection(await long.save())).toBe(
      `template PDF has more than ${PDF_TEMPLATE_MAX_PAGES} pages (${PDF_TEMPLATE_MAX_PAGES + 1})`,
    );

    const large = new Uint8Array(PDF_TEMPLATE_MAX_BYTES + 1);
    large.set(Buffer.from('%PDF-1.7\n'));
    expect(await rejection(large)).toMatch(/^template is larger than/);
  });
});

describe('vaultFieldNameOf', () => {
  it('takes a vault field name whole, or the last part of a hierarchical name', () => {
    expect(vaultFieldNameOf('iban')).toBe('iban');
    expect(vaultFieldNameOf('applicant.iban')).toBe('iban');
    expect(vaultFieldNameOf('form1[0].page1[0].date_of_birth[0]')).toBe('date_of_birth');
    expect(vaultFieldNameOf('IBAN')).toBeUndefined();
    expect(vaultFieldNameOf('Signature Date')).toBeUndefined();
    expect(vaultFieldNameOf('applicant.')).toBeUndefined();
  });
});
