import { randomBytes } from 'node:crypto';
import { openPdfReader } from '@svc/capabilities';
import { ErrorResponse } from '@svc/contracts';
import type { FetchResult, StackApi, StackFetchInit } from '@svc/testkit';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { z } from 'zod';

/**
 * Shared helpers of the vault suites (services/gateway/test/vault/*): the routes, a client that
 * keeps every answer it got (to prove no plaintext ever comes back), test documents (a realistic
 * letter, a one-page AcroForm PDF), fresh valid IBANs to use as markers, and reading a PDF's text
 * back with the project's reader.
 */

/** Everything the walk-through needs: the three vault scopes, uploads (templates) and artifacts (download). */
export const VAULT_SCOPES = ['vault:read', 'vault:write', 'vault:fill', 'uploads:write', 'artifacts:read'];

/** The upload target of vault documents and templates (contracts VAULT_DOCUMENT_UPLOAD_SLUG). */
export const VAULT_UPLOAD_SLUG = 'vault-document';

/** The gateway's vault routes (spec §4.15-4.20 and the ones of our design, docs/decisions.md "The vault"). */
export const VAULT = {
  profile: '/api/vault/profile',
  fields: '/api/vault/fields',
  field: (name: string) => `/api/vault/fields/${encodeURIComponent(name)}`,
  extractions: '/api/vault/extractions',
  extraction: (id: string) => `/api/vault/extractions/${id}`,
  review: (id: string) => `/api/vault/extractions/${id}/review`,
  fill: '/api/vault/fill-document',
  documents: '/api/vault/documents',
  document: (id: string) => `/api/vault/documents/${id}`,
  audit: '/api/vault/audit',
} as const;

/** One answer the suite got: what was asked, and the body exactly as it came. */
export interface RecordedBody {
  what: string;
  text: string;
}

/**
 * A client of the gateway with one API key that records every answer's body (`bodies`), so a suite
 * can check at its end that no plaintext came back in any of them.
 */
export class VaultClient {
  constructor(
    private readonly stack: StackApi,
    readonly apiKey: string | undefined,
    readonly bodies: RecordedBody[] = [],
  ) {}

  /** The same recording, another key (or none). */
  withKey(apiKey: string | undefined): VaultClient {
    return new VaultClient(this.stack, apiKey, this.bodies);
  }

  async fetch(path: string, init: StackFetchInit = {}): Promise<FetchResult> {
    const result = await this.stack.fetch(path, {
      ...init,
      ...(this.apiKey === undefined ? {} : { apiKey: this.apiKey }),
    });
    this.bodies.push({ what: `${init.method ?? 'GET'} ${path} → ${result.status}`, text: result.text });
    return result;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<FetchResult> {
    return this.fetch(path, { headers });
  }

  post(path: string, json: unknown, headers: Record<string, string> = {}): Promise<FetchResult> {
    return this.fetch(path, { method: 'POST', json, headers });
  }

  delete(path: string): Promise<FetchResult> {
    return this.fetch(path, { method: 'DELETE' });
  }
}

/** `result` parsed by `schema` once its status is `status`; otherwise throws quoting the answer. */
export function expectAnswer<S extends z.ZodType>(
  result: FetchResult,
  status: number,
  schema: S,
  what = '',
): z.infer<S> {
  if (result.status !== status) {
    throw new Error(`${what} expected ${status}, got ${result.status}: ${result.text.slice(0, 800)}`);
  }
  return schema.parse(result.json);
}

/** The `error` of an ErrorResponse with status `status` (throws quoting the answer otherwise). */
export function expectError(result: FetchResult, status: number | readonly number[], what = ''): string {
  const allowed = typeof status === 'number' ? [status] : status;
  if (!allowed.includes(result.status)) {
    throw new Error(
      `${what} expected ${allowed.join(' or ')}, got ${result.status}: ${result.text.slice(0, 800)}`,
    );
  }
  return ErrorResponse.parse(result.json).error;
}

/**
 * The ways a plaintext could show in a text: as given, without spaces (an IBAN or a phone number
 * normalised), and with every non-ASCII character escaped as JSON may write it (`\u6771`).
 */
export function plaintextForms(value: string): string[] {
  const forms = new Set([value, value.replace(/\s+/g, '')]);
  // UTF-16 units, as JSON escapes them (a character past U+FFFF is two escapes), hex either case.
  for (const hex of [(n: number) => n.toString(16), (n: number) => n.toString(16).toUpperCase()]) {
    forms.add(value.replace(/[^\x20-\x7e]/g, (c) => `\\u${hex(c.charCodeAt(0)).padStart(4, '0')}`));
  }
  return [...forms].filter((form) => form.length >= 6);
}

/** Labelled secrets found in labelled texts: `"<where> holds <secret label>"`, one per find. */
export function findSecrets(
  places: readonly RecordedBody[],
  secrets: Readonly<Record<string, string>>,
): string[] {
  const found: string[] = [];
  for (const place of places) {
    for (const [label, value] of Object.entries(secrets)) {
      if (plaintextForms(value).some((form) => place.text.includes(form))) {
        found.push(`${place.what} holds ${label}`);
      }
    }
  }
  return found;
}

/**
 * A valid German IBAN (mod-97 right) with 18 random digits: a value no other test, log line or
 * ciphertext holds by chance, so it works as a marker.
 */
export function randomIban(): string {
  const bban = Array.from(randomBytes(18), (byte) => String(byte % 10)).join('');
  // Check digits: 98 − (BBAN + "DE" as 1314 + "00") mod 97.
  const check = 98n - (BigInt(`${bban}131400`) % 97n);
  return `DE${String(check).padStart(2, '0')}${bban}`;
}

/** An IBAN as printed, in groups of four. */
export function spacedIban(compact: string): string {
  return compact.replace(/(.{4})/g, '$1 ').trim();
}

/** The same IBAN with its last check digit changed: fails mod-97. */
export function brokenIban(compact: string): string {
  const last = Number(compact.at(-1));
  return `${compact.slice(0, -1)}${(last + 1) % 10}`;
}

export interface LetterValues {
  name: string;
  /** As written in the letter: `15.03.1987`. */
  dateOfBirth: string;
  email: string;
  /** Compact IBAN; the letter prints it spaced. */
  iban: string;
}

/** A realistic letter from a tax adviser with labelled lines, as a client would paste it. */
export function letterText(values: LetterValues): string {
  return [
    'Müller & Partner Steuerberatung',
    'Hauptstraße 12, 10115 Berlin',
    '',
    'Berlin, 3 March 2026',
    '',
    `Dear ${values.name},`,
    '',
    'thank you for sending your documents for the 2025 tax return. For our records we hold the',
    'following details; please check them and tell us of any change before the end of the month.',
    '',
    `Name: ${values.name}`,
    `Date of birth: ${values.dateOfBirth}`,
    `E-mail: ${values.email}`,
    `IBAN: ${spacedIban(values.iban)}`,
    '',
    'The refund will be paid into the account above once the assessment arrives.',
    '',
    'Kind regards,',
    'Jonas Weber',
  ].join('\n');
}

/** The text a span covers, counted in code points (how the vault reports spans). */
export function spanText(text: string, span: { start: number; end: number }): string {
  return [...text].slice(span.start, span.end).join('');
}

/**
 * A one-page PDF form with one AcroForm text field per name (named after vault fields), each under
 * a printed label: the template a client would upload.
 */
export async function makePdfForm(fieldNames: readonly string[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([595, 842]);
  page.drawText('Application for a resident parking permit', { x: 50, y: 790, size: 16, font });
  const form = document.getForm();
  fieldNames.forEach((name, i) => {
    const y = 730 - i * 44;
    page.drawText(`${name.replaceAll('_', ' ')}:`, { x: 50, y: y + 7, size: 11, font });
    const field = form.createTextField(name);
    field.addToPage(page, { x: 190, y, width: 350, height: 24, font });
  });
  return Buffer.from(await document.save());
}

/** A PDF with one page per entry, each page's text drawn line by line (WinAnsi characters only). */
export async function makeTextPdf(pages: readonly string[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = document.addPage([595, 842]);
    text.split('\n').forEach((line, i) => {
      page.drawText(line, { x: 50, y: 790 - i * 16, size: 11, font });
    });
  }
  return Buffer.from(await document.save());
}

/** The text of every page of a PDF, read with the project's reader (pdf-extract-text's). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const signal = new AbortController().signal;
  // The bytes are transferred to the reading thread: a copy, so the caller's stay usable.
  const reader = await openPdfReader(new Uint8Array(bytes), signal, {
    stepTimeoutMs: 30_000,
    maxHeapMb: 256,
  });
  try {
    const pages: string[] = [];
    for (let page = 1; page <= reader.pages; page++) pages.push(await reader.text(page, signal));
    return pages.join('\n');
  } finally {
    await reader.close();
  }
}

/**
 * Whitespace removed: PDF text extraction may split or join runs where the filled text changes font
 * (the vault embeds a Latin and a CJK font), so values are compared without it.
 */
export function squash(text: string): string {
  return text.replace(/\s+/gu, '');
}
