import { randomBytes } from 'node:crypto';
import {
  DeleteVaultFieldResponse,
  ExtractionResponse,
  FillDocumentResponse,
  ListExtractionsResponse,
  ListVaultDocumentsResponse,
  ListVaultFieldsResponse,
  ReviewExtractionResponse,
  SaveVaultFieldResponse,
  VaultAuditResponse,
  type VaultExtraction,
  type VaultField,
  VaultProfileResponse,
} from '@svc/contracts';
import { SHARED_STACK_BEFORE_ALL_MS, type SharedTestStack, sharedTestStack } from '@svc/testkit';
import { download, uploadOk } from '../files/support';
import {
  expectAnswer,
  expectError,
  findSecrets,
  letterText,
  makePdfForm,
  makeTextPdf,
  pdfText,
  randomIban,
  spacedIban,
  spanText,
  squash,
  VAULT,
  VAULT_SCOPES,
  VAULT_UPLOAD_SLUG,
  VaultClient,
} from './support';

/**
 * Issue 16's walk-through over HTTP against the jest run's shared platform (real gateway, vault,
 * uploads processes, PostgreSQL, Redis, object storage): fields saved and listed masked, an
 * extraction from a letter that saves nothing until it is reviewed, the review (approve, correct,
 * reject; a stale review gets 409), a text and a PDF form filled with a disallowed field left
 * empty, the filled PDF read back (Unicode included), the download, the audit trail, the
 * stale-version 409 of fields and a delete. Every answer's body is kept: at the end none may hold
 * any plaintext value (the filled documents themselves are the one place values go back out).
 */

jest.setTimeout(120_000);

const tag = randomBytes(4).toString('hex');
/** The values the client saves (`phone` as typed; the vault stores it as E.164). */
const VALUES = {
  email: `ayse.sahin.${tag}@example.org`,
  iban: randomIban(),
  phone: '+49 30 901820 45',
  date_of_birth: '1987-03-15',
  city: 'Ærøskøbing',
  full_name: '東京 Şahin Groß',
} as const;
const PHONE_E164 = '+493090182045';
/** The letter's own values: a second marker IBAN, its e-mail and date of birth. */
const LETTER = {
  name: 'Ayşe Şahin',
  dateOfBirth: '24.11.1979',
  email: `a.sahin.${tag}@post-example.de`,
  iban: randomIban(),
};
const LETTER_TEXT = letterText(LETTER);
/** The values of a second letter, uploaded as a PDF (Latin-1 only: drawn with a standard PDF font). */
const PDF_LETTER = {
  dateOfBirth: '09.09.1969',
  email: `j.weiss.${tag}@example.at`,
  iban: randomIban(),
};
/** What the reviewer types instead of the letter's date of birth. */
const CORRECTED_DOB = '1979-11-25';
const UPDATED_CITY = 'Kraków';

/** Every plaintext of the suite, labelled: no vault answer may hold any of them. */
const SECRETS: Record<string, string> = {
  'saved email': VALUES.email,
  'saved IBAN': VALUES.iban,
  'saved IBAN (spaced)': spacedIban(VALUES.iban),
  'saved phone': VALUES.phone,
  'saved phone (E.164)': PHONE_E164,
  'saved date of birth': VALUES.date_of_birth,
  'saved city': VALUES.city,
  'saved full name': VALUES.full_name,
  'updated city': UPDATED_CITY,
  "letter's e-mail": LETTER.email,
  "letter's IBAN": LETTER.iban,
  "letter's IBAN (spaced)": spacedIban(LETTER.iban),
  "letter's date of birth": LETTER.dateOfBirth,
  "letter's date of birth (ISO)": '1979-11-24',
  'corrected date of birth': CORRECTED_DOB,
  "PDF letter's e-mail": PDF_LETTER.email,
  "PDF letter's IBAN": PDF_LETTER.iban,
  "PDF letter's IBAN (spaced)": spacedIban(PDF_LETTER.iban),
  "PDF letter's date of birth": PDF_LETTER.dateOfBirth,
};

let stack: SharedTestStack;
let vault: VaultClient;

beforeAll(async () => {
  stack = await sharedTestStack();
  const key = await stack.createApiKey({ scopes: VAULT_SCOPES, clientName: `vault-walk-${tag}` });
  vault = new VaultClient(stack, key.apiKey);
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await stack?.close();
});

async function listFields(): Promise<VaultField[]> {
  return expectAnswer(await vault.get(VAULT.fields), 200, ListVaultFieldsResponse, 'list fields').fields;
}

function fieldNamed(fields: readonly VaultField[], name: string): VaultField {
  const field = fields.find((f) => f.name === name);
  if (field === undefined) throw new Error(`no field ${name} among ${fields.map((f) => f.name).join(', ')}`);
  return field;
}

describe('the vault walk-through', () => {
  let extraction: VaultExtraction;
  let fieldsBeforeReview: VaultField[];
  const documentIds: string[] = [];
  const FILL_REQUEST_IDS = [`vault-fill-text-${tag}`, `vault-fill-pdf-${tag}`];

  it('starts empty: the profile lists every common field as missing', async () => {
    const { profile } = expectAnswer(await vault.get(VAULT.profile), 200, VaultProfileResponse, 'profile');
    expect(profile).toMatchObject({ fields_total: 0, pending_extractions: 0, key_version: 1 });
    expect(profile.common_fields.length).toBeGreaterThan(0);
    expect(profile.common_fields.every((f) => !f.present)).toBe(true);
  });

  it('saves six fields of different types: 201, version 1, entered, masked', async () => {
    for (const [name, value] of Object.entries(VALUES)) {
      const saved = expectAnswer(
        await vault.post(VAULT.fields, { name, type: name, value }),
        201,
        SaveVaultFieldResponse,
        `save ${name}`,
      );
      expect(saved).toMatchObject({
        outcome: 'created',
        field: { name, type: name, version: 1, source: { kind: 'entered' }, key_version: 1 },
      });
      expect(saved.field.masked_value).toContain('*');
    }
  });

  it('lists the fields by name, masked by type', async () => {
    const fields = await listFields();
    expect(fields.map((f) => f.name)).toEqual(Object.keys(VALUES).sort());
    expect(fields.every((f) => f.version === 1 && f.masked_value.includes('*'))).toBe(true);
    // The masks the issue names: the domain of an e-mail, the first and last groups of an IBAN.
    expect(fieldNamed(fields, 'email').masked_value).toMatch(/^a\*+@example\.org$/);
    const iban = fieldNamed(fields, 'iban').masked_value;
    expect(iban.startsWith('DE')).toBe(true);
    expect(iban.replace(/\s/g, '').endsWith(VALUES.iban.slice(-4))).toBe(true);

    const { profile } = expectAnswer(await vault.get(VAULT.profile), 200, VaultProfileResponse, 'profile');
    expect(profile.fields_total).toBe(6);
    expect(profile.by_type).toMatchObject({ email: 1, iban: 1, phone: 1, city: 1, full_name: 1 });
    const present = profile.common_fields.filter((f) => f.present).map((f) => f.name);
    expect(present).toEqual(expect.arrayContaining(['email', 'phone', 'date_of_birth', 'city', 'iban']));
    expect(profile.last_changed_at).toBeDefined();
  });

  it('extracts candidates from a letter: masked, with page and span, pending', async () => {
    fieldsBeforeReview = await listFields();
    const created = expectAnswer(
      await vault.post(VAULT.extractions, { document: { text: LETTER_TEXT } }),
      201,
      ExtractionResponse,
      'create extraction',
    );
    extraction = created.extraction;
    expect(extraction).toMatchObject({
      status: 'pending',
      version: 1,
      document: { kind: 'text', pages: 1, characters: [...LETTER_TEXT].length },
    });
    const byType = (type: string) => extraction.candidates.find((c) => c.type === type);
    const iban = byType('iban');
    const dob = byType('date_of_birth');
    const email = byType('email');
    expect({ iban, dob, email }).toEqual({
      iban: expect.anything(),
      dob: expect.anything(),
      email: expect.anything(),
    });
    if (iban === undefined || dob === undefined || email === undefined) return;
    for (const candidate of [iban, dob, email]) {
      expect(candidate).toMatchObject({ status: 'pending', page: 1 });
      expect(candidate.confidence).toBeGreaterThan(0);
      expect(candidate.masked_value).toContain('*');
    }
    // Where each was found, in code points of the letter's text.
    expect(spanText(LETTER_TEXT, iban.span).replace(/\s/g, '')).toBe(LETTER.iban);
    expect(spanText(LETTER_TEXT, dob.span)).toBe(LETTER.dateOfBirth);
    expect(spanText(LETTER_TEXT, email.span)).toBe(LETTER.email);

    // Listed and readable by id, the same.
    const listed = expectAnswer(
      await vault.get(VAULT.extractions),
      200,
      ListExtractionsResponse,
      'list extractions',
    );
    expect(listed.extractions.map((e) => e.extraction_id)).toContain(extraction.extraction_id);
    const one = expectAnswer(
      await vault.get(VAULT.extraction(extraction.extraction_id)),
      200,
      ExtractionResponse,
      'get extraction',
    );
    expect(one.extraction).toEqual(extraction);
  });

  it('saves nothing before the review', async () => {
    expect(await listFields()).toEqual(fieldsBeforeReview);
    const { profile } = expectAnswer(await vault.get(VAULT.profile), 200, VaultProfileResponse, 'profile');
    expect(profile).toMatchObject({ fields_total: 6, pending_extractions: 1 });
  });

  it('refuses an approval into an existing field without its version (409), changing nothing', async () => {
    const email = extraction.candidates.find((c) => c.type === 'email');
    if (email === undefined) throw new Error('no e-mail candidate');
    const answer = await vault.post(VAULT.review(extraction.extraction_id), {
      expected_version: extraction.version,
      decisions: [{ candidate_id: email.candidate_id, action: 'approve', field_name: 'email' }],
    });
    expect(expectError(answer, 409, 'approve into existing email')).toContain('email');
    expect(await listFields()).toEqual(fieldsBeforeReview);
  });

  it('reviews: approves one under a new name, corrects one, rejects one', async () => {
    const candidate = (type: string) => {
      const found = extraction.candidates.find((c) => c.type === type);
      if (found === undefined) throw new Error(`no ${type} candidate`);
      return found;
    };
    const iban = candidate('iban');
    const dob = candidate('date_of_birth');
    const email = candidate('email');
    const reviewed = expectAnswer(
      await vault.post(VAULT.review(extraction.extraction_id), {
        expected_version: extraction.version,
        decisions: [
          { candidate_id: iban.candidate_id, action: 'approve', field_name: 'refund_iban' },
          {
            candidate_id: dob.candidate_id,
            action: 'approve',
            field_name: 'date_of_birth',
            value: CORRECTED_DOB,
            field_version: 1,
          },
          { candidate_id: email.candidate_id, action: 'reject' },
        ],
      }),
      200,
      ReviewExtractionResponse,
      'review',
    );
    expect(reviewed.extraction.version).toBeGreaterThan(extraction.version);
    const after = (id: string) => reviewed.extraction.candidates.find((c) => c.candidate_id === id);
    expect(after(iban.candidate_id)).toMatchObject({
      status: 'approved',
      saved_as: { name: 'refund_iban', version: 1 },
    });
    expect(after(dob.candidate_id)).toMatchObject({
      status: 'approved',
      saved_as: { name: 'date_of_birth', version: 2 },
    });
    expect(after(email.candidate_id)?.status).toBe('rejected');
    expect(reviewed.saved_fields.map((f) => f.name).sort()).toEqual(['date_of_birth', 'refund_iban']);

    const fields = await listFields();
    expect(fieldNamed(fields, 'refund_iban')).toMatchObject({
      type: 'iban',
      version: 1,
      source: {
        kind: 'extraction',
        extraction_id: extraction.extraction_id,
        candidate_id: iban.candidate_id,
      },
    });
    expect(fieldNamed(fields, 'refund_iban').masked_value.replace(/\s/g, '')).toMatch(
      new RegExp(`${LETTER.iban.slice(-4)}$`),
    );
    // The corrected value was saved, not the letter's (the mask shows the day).
    // (That the corrected value was saved, not the letter's, shows in the filled Markdown below.)
    expect(fieldNamed(fields, 'date_of_birth')).toMatchObject({ version: 2, source: { kind: 'extraction' } });
    // The rejected candidate changed nothing.
    expect(fieldNamed(fields, 'email')).toEqual(fieldNamed(fieldsBeforeReview, 'email'));
    extraction = reviewed.extraction;
  });

  it('refuses a review against the old version with 409', async () => {
    const pending = extraction.candidates.find((c) => c.status === 'pending');
    const decided = extraction.candidates[0];
    const candidateId = (pending ?? decided)?.candidate_id;
    if (candidateId === undefined) throw new Error('no candidate');
    const fieldsNow = await listFields();
    const answer = await vault.post(VAULT.review(extraction.extraction_id), {
      expected_version: 1,
      decisions: [{ candidate_id: candidateId, action: 'reject' }],
    });
    expectError(answer, 409, 'stale review');
    expect(await listFields()).toEqual(fieldsNow);
  });

  it('fills a Markdown template: allowed fields placed, a disallowed and an unknown one left empty', async () => {
    const template = [
      '# Change of address',
      '',
      'Name: {{full_name}}',
      'New city: {{city}}',
      'Born: {{date_of_birth}}',
      'Account: {{iban}}',
      'Reference: {{customer_number}}',
    ].join('\n');
    const filled = expectAnswer(
      await vault.post(
        VAULT.fill,
        {
          template: { text: template, format: 'markdown' },
          fields: ['full_name', 'city', 'date_of_birth'],
          filename: 'address.md',
        },
        { 'x-request-id': FILL_REQUEST_IDS[0] ?? '' },
      ),
      201,
      FillDocumentResponse,
      'fill markdown',
    );
    const { report, artifact } = filled.document;
    expect(report.filled.sort()).toEqual(['city', 'date_of_birth', 'full_name']);
    expect(report.not_allowed).toEqual(['iban']);
    expect(report.unknown).toEqual(['customer_number']);
    expect(report.empty).toEqual([]);
    expect(artifact).toMatchObject({ run_id: filled.document.document_id, name: 'address.md' });
    documentIds.push(filled.document.document_id);

    const file = await download(artifact.download_url, vault.apiKey ?? null);
    expect(file.status).toBe(200);
    expect(file.text).toContain(`Name: ${VALUES.full_name}`);
    expect(file.text).toContain(`New city: ${VALUES.city}`);
    // The reviewer's correction, not the letter's date nor the one entered first.
    expect(file.text).toContain(`Born: ${CORRECTED_DOB}`);
    expect(file.text).not.toContain(VALUES.iban);
    expect(file.text).not.toContain(spacedIban(VALUES.iban));
    expect(file.text).not.toContain('{{');
  });

  it('fills an uploaded one-page PDF form: Unicode placed, the disallowed IBAN not', async () => {
    const form = await makePdfForm(['full_name', 'city', 'email', 'iban', 'membership_number']);
    const upload = await uploadOk(
      stack,
      vault.apiKey ?? '',
      VAULT_UPLOAD_SLUG,
      { filename: 'permit-form.pdf', content_type: 'application/pdf' },
      form,
    );
    const filled = expectAnswer(
      await vault.post(
        VAULT.fill,
        { template: { upload_id: upload.upload_id }, fields: ['full_name', 'city', 'email'] },
        { 'x-request-id': FILL_REQUEST_IDS[1] ?? '' },
      ),
      201,
      FillDocumentResponse,
      'fill pdf',
    );
    const { report, artifact } = filled.document;
    expect(report.filled.sort()).toEqual(['city', 'email', 'full_name']);
    expect(report.not_allowed).toEqual(['iban']);
    expect(report.unknown).toEqual(['membership_number']);
    expect(artifact.content_type).toBe('application/pdf');
    documentIds.push(filled.document.document_id);

    // The document through its signed link with the API key, as run artifacts are downloaded.
    const file = await download(artifact.download_url, vault.apiKey ?? null);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('application/pdf');
    expect(file.bytes.byteLength).toBe(artifact.size_bytes);
    const text = squash(await pdfText(file.bytes));
    expect(text).toContain(squash(VALUES.full_name));
    expect(text).toContain(squash(VALUES.city));
    expect(text).toContain(squash(VALUES.email));
    expect(text).not.toContain(VALUES.iban);
    expect(text).not.toContain(VALUES.iban.slice(4));
  });

  it('lists the filled documents of the client', async () => {
    const { documents } = expectAnswer(
      await vault.get(VAULT.documents),
      200,
      ListVaultDocumentsResponse,
      'list documents',
    );
    expect(documents.map((d) => d.document_id).sort()).toEqual([...documentIds].sort());
    // Each with a fresh link that opens it.
    const pdf = documents.find((d) => d.artifact.content_type === 'application/pdf');
    expect((await download(pdf?.artifact.download_url ?? '', vault.apiKey ?? null)).status).toBe(200);
  });

  it('keeps an audit line for every decryption: each fill and each approval', async () => {
    const { events } = expectAnswer(
      await vault.get(`${VAULT.audit}?limit=200`),
      200,
      VaultAuditResponse,
      'audit',
    );
    const lines = events.map((e) => `${e.purpose} ${e.field} ${e.subject_id} ${e.request_id}`);
    const [textDoc, pdfDoc] = documentIds;
    const [textRequest, pdfRequest] = FILL_REQUEST_IDS;
    expect(lines).toEqual(
      expect.arrayContaining([
        `fill full_name ${textDoc} ${textRequest}`,
        `fill city ${textDoc} ${textRequest}`,
        `fill date_of_birth ${textDoc} ${textRequest}`,
        `fill full_name ${pdfDoc} ${pdfRequest}`,
        `fill city ${pdfDoc} ${pdfRequest}`,
        `fill email ${pdfDoc} ${pdfRequest}`,
      ]),
    );
    // A disallowed field is never decrypted.
    expect(events.filter((e) => e.purpose === 'fill' && e.field === 'iban')).toEqual([]);
    // The approved IBAN candidate was decrypted to be saved: one line, naming the field it was saved as.
    const approvals = events.filter((e) => e.purpose === 'approve');
    const ibanApprovals = approvals.filter(
      (e) => e.subject_id === extraction.extraction_id && e.field === 'refund_iban',
    );
    expect(ibanApprovals).toHaveLength(1);
    // The rejected e-mail candidate was not.
    const emailCandidate = extraction.candidates.find((c) => c.type === 'email');
    expect(approvals.filter((e) => e.field === emailCandidate?.field_name)).toEqual([]);
    expect(events.every((e) => e.key_version === 1)).toBe(true);
    // Newest first.
    const times = events.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('updates only at the expected version: a stale update gets 409, a create of an existing name 409', async () => {
    const updated = expectAnswer(
      await vault.post(VAULT.fields, {
        name: 'city',
        type: 'city',
        value: UPDATED_CITY,
        expected_version: 1,
      }),
      200,
      SaveVaultFieldResponse,
      'update city',
    );
    expect(updated).toMatchObject({ outcome: 'updated', field: { name: 'city', version: 2 } });

    const stale = await vault.post(VAULT.fields, {
      name: 'city',
      type: 'city',
      value: 'Odense',
      expected_version: 1,
    });
    expect(expectError(stale, 409, 'stale update')).toContain('city');
    const again = await vault.post(VAULT.fields, { name: 'city', type: 'city', value: 'Odense' });
    // 409 naming the current version, so the client knows what to send.
    expect(expectError(again, 409, 'create existing')).toMatch(/\b2\b/);
    const missing = await vault.post(VAULT.fields, {
      name: 'no_such_field',
      type: 'city',
      value: 'Odense',
      expected_version: 1,
    });
    expectError(missing, 404, 'update missing');
    expect(fieldNamed(await listFields(), 'city').version).toBe(2);
  });

  it('deletes a field (a stale delete gets 409); it is gone from the list and cannot be filled', async () => {
    expectError(await vault.delete(`${VAULT.field('phone')}?expected_version=7`), 409, 'stale delete');
    const deleted = expectAnswer(
      await vault.delete(VAULT.field('phone')),
      200,
      DeleteVaultFieldResponse,
      'delete phone',
    );
    expect(deleted.deleted).toEqual({ name: 'phone', version: 1 });
    expect((await listFields()).map((f) => f.name)).not.toContain('phone');
    expectError(await vault.delete(VAULT.field('phone')), 404, 'delete again');

    const filled = expectAnswer(
      await vault.post(VAULT.fill, {
        template: { text: 'Call {{phone}}', format: 'text' },
        fields: ['phone'],
      }),
      201,
      FillDocumentResponse,
      'fill deleted',
    );
    expect(filled.document.report).toMatchObject({ filled: [], unknown: ['phone'] });
  });

  it('extracts from an uploaded two-page PDF letter: candidates on the page they were found', async () => {
    const letter = letterText({ ...PDF_LETTER, name: 'Jörg Weiß' });
    const pdf = await makeTextPdf(['Cover page: documents for the 2025 tax return', letter]);
    const upload = await uploadOk(
      stack,
      vault.apiKey ?? '',
      VAULT_UPLOAD_SLUG,
      { filename: 'letter.pdf', content_type: 'application/pdf' },
      pdf,
    );
    const fieldsBefore = await listFields();
    const { extraction: fromPdf } = expectAnswer(
      await vault.post(VAULT.extractions, { document: { upload_id: upload.upload_id } }),
      201,
      ExtractionResponse,
      'extract from a PDF',
    );
    expect(fromPdf).toMatchObject({
      status: 'pending',
      document: { kind: 'upload', upload_id: upload.upload_id, content_type: 'application/pdf', pages: 2 },
    });
    const iban = fromPdf.candidates.find((c) => c.type === 'iban');
    const email = fromPdf.candidates.find((c) => c.type === 'email');
    expect(iban).toMatchObject({ page: 2 });
    expect(email).toMatchObject({ page: 2 });
    expect(iban?.masked_value.replace(/\s/g, '')).toMatch(new RegExp(`${PDF_LETTER.iban.slice(-4)}$`));
    // Still nothing saved.
    expect(await listFields()).toEqual(fieldsBefore);
  });

  it('never returned a plaintext value in any answer', () => {
    // Not vacuous: every step above went through `vault` and was recorded.
    expect(vault.bodies.length).toBeGreaterThan(25);
    expect(findSecrets(vault.bodies, SECRETS)).toEqual([]);
  });
});
