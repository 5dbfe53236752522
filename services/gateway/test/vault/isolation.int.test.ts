import { randomBytes, randomUUID } from 'node:crypto';
import {
  ExtractionResponse,
  FillDocumentResponse,
  ListExtractionsResponse,
  ListVaultDocumentsResponse,
  ListVaultFieldsResponse,
  SaveVaultFieldResponse,
  VaultAuditResponse,
  type VaultDocument,
  type VaultExtraction,
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
  randomIban,
  VAULT,
  VAULT_SCOPES,
  VAULT_UPLOAD_SLUG,
  VaultClient,
} from './support';

/**
 * Issue 16: "A client never sees, fills with, or learns anything about another client's vault."
 * Client 1 fills its vault (fields, an extraction, a filled document, audit lines); client 2, with
 * every vault scope, sees none of it anywhere, gets the same 404 for client 1's extraction or
 * document as for an unknown id, and cannot fill with client 1's fields.
 */

jest.setTimeout(120_000);

const tag = randomBytes(4).toString('hex');
const OWNER_VALUES = {
  full_name: `Margarethe Øster-${tag}`,
  iban: randomIban(),
  email: `m.oester.${tag}@example.net`,
};

let stack: SharedTestStack;
let owner: VaultClient;
let other: VaultClient;
let extraction: VaultExtraction;
let document: VaultDocument;
let templateUploadId: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  const [ownerKey, otherKey] = await Promise.all([
    stack.createApiKey({ scopes: VAULT_SCOPES, clientName: `vault-owner-${tag}` }),
    stack.createApiKey({ scopes: VAULT_SCOPES, clientName: `vault-other-${tag}` }),
  ]);
  owner = new VaultClient(stack, ownerKey.apiKey);
  other = owner.withKey(otherKey.apiKey); // one recording for both clients

  for (const [name, value] of Object.entries(OWNER_VALUES)) {
    expectAnswer(
      await owner.post(VAULT.fields, { name, type: name, value }),
      201,
      SaveVaultFieldResponse,
      `owner saves ${name}`,
    );
  }
  const letter = letterText({
    name: 'Margarethe Øster',
    dateOfBirth: '02.02.1990',
    email: `letter.${tag}@example.net`,
    iban: randomIban(),
  });
  extraction = expectAnswer(
    await owner.post(VAULT.extractions, { document: { text: letter } }),
    201,
    ExtractionResponse,
    'owner extraction',
  ).extraction;
  templateUploadId = (
    await uploadOk(
      stack,
      ownerKey.apiKey,
      VAULT_UPLOAD_SLUG,
      { filename: 'owner-form.pdf', content_type: 'application/pdf' },
      await makePdfForm(['full_name', 'email']),
    )
  ).upload_id;
  document = expectAnswer(
    await owner.post(VAULT.fill, {
      template: { text: 'Dear {{full_name}}', format: 'text' },
      fields: ['full_name'],
    }),
    201,
    FillDocumentResponse,
    'owner fill',
  ).document;
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await stack?.close();
});

/** The body of a 404 with the id in it replaced, to compare an answer about one id with another's. */
function notFoundBody(text: string, id: string): string {
  return text.replaceAll(id, '<id>');
}

describe("another client's vault is invisible", () => {
  it('lists no fields, extractions, documents or audit lines of the owner', async () => {
    const fields = expectAnswer(await other.get(VAULT.fields), 200, ListVaultFieldsResponse, 'other fields');
    expect(fields).toMatchObject({ count: 0, fields: [] });
    const extractions = expectAnswer(
      await other.get(VAULT.extractions),
      200,
      ListExtractionsResponse,
      'other extractions',
    );
    expect(extractions).toMatchObject({ count: 0, extractions: [] });
    const documents = expectAnswer(
      await other.get(VAULT.documents),
      200,
      ListVaultDocumentsResponse,
      'other documents',
    );
    expect(documents).toMatchObject({ count: 0, documents: [] });
    const audit = expectAnswer(await other.get(VAULT.audit), 200, VaultAuditResponse, 'other audit');
    expect(audit).toMatchObject({ count: 0, events: [] });
    const { profile } = expectAnswer(await other.get(VAULT.profile), 200, VaultProfileResponse, 'profile');
    expect(profile).toMatchObject({ fields_total: 0, pending_extractions: 0, by_type: {} });

    // Not vacuous: the owner sees all of it.
    const mine = expectAnswer(await owner.get(VAULT.fields), 200, ListVaultFieldsResponse, 'owner fields');
    expect(mine.count).toBe(3);
    const myAudit = expectAnswer(await owner.get(VAULT.audit), 200, VaultAuditResponse, 'owner audit');
    expect(myAudit.events.map((e) => e.subject_id)).toContain(document.document_id);
  });

  it("answers the owner's extraction with the same 404 as an unknown id: read and review", async () => {
    const unknown = randomUUID();
    const id = extraction.extraction_id;
    const candidate = extraction.candidates[0];
    if (candidate === undefined) throw new Error('the letter gave no candidate');

    const read = await other.get(VAULT.extraction(id));
    const readUnknown = await other.get(VAULT.extraction(unknown));
    expectError(read, 404, "read owner's extraction");
    expectError(readUnknown, 404, 'read unknown extraction');
    expect(notFoundBody(read.text, id)).toBe(notFoundBody(readUnknown.text, unknown));

    const review = {
      expected_version: 1,
      decisions: [{ candidate_id: candidate.candidate_id, action: 'approve', field_name: 'stolen_value' }],
    };
    const reviewed = await other.post(VAULT.review(id), review);
    const reviewedUnknown = await other.post(VAULT.review(unknown), review);
    expectError(reviewed, 404, "review owner's extraction");
    expectError(reviewedUnknown, 404, 'review unknown extraction');
    expect(notFoundBody(reviewed.text, id)).toBe(notFoundBody(reviewedUnknown.text, unknown));

    // Nothing was saved for either client, and the owner's extraction is untouched.
    const fields = expectAnswer(await other.get(VAULT.fields), 200, ListVaultFieldsResponse, 'other fields');
    expect(fields.count).toBe(0);
    const still = expectAnswer(await owner.get(VAULT.extraction(id)), 200, ExtractionResponse, 'owner');
    expect(still.extraction).toEqual(extraction);
  });

  it("answers the owner's document with the same 404 as an unknown one, and refuses its link to others and to no key", async () => {
    const unknown = randomUUID();
    const id = document.document_id;
    const read = await other.get(VAULT.document(id));
    const readUnknown = await other.get(VAULT.document(unknown));
    expectError(read, 404, "read owner's document");
    expectError(readUnknown, 404, 'read unknown document');
    expect(notFoundBody(read.text, id)).toBe(notFoundBody(readUnknown.text, unknown));

    // The link is signed for the owner: another client's key cannot follow it.
    const link = await download(document.artifact.download_url, other.apiKey ?? null);
    expect([403, 404]).toContain(link.status);
    expect(link.text).not.toContain(OWNER_VALUES.full_name);
    expect((await download(document.artifact.download_url, null)).status).toBe(401);
    const mine = await download(document.artifact.download_url, owner.apiKey ?? null);
    expect(mine.status).toBe(200);
    expect(mine.text).toBe(`Dear ${OWNER_VALUES.full_name}`);
  });

  it("cannot fill with the owner's fields: they are unknown to it", async () => {
    const filled = expectAnswer(
      await other.post(VAULT.fill, {
        template: { text: 'Name {{full_name}}, IBAN {{iban}}, mail {{email}}', format: 'text' },
        fields: ['full_name', 'iban', 'email'],
      }),
      201,
      FillDocumentResponse,
      'other fill',
    );
    expect(filled.document.report).toEqual({
      filled: [],
      unknown: ['full_name', 'iban', 'email'],
      not_allowed: [],
      empty: [],
    });
    const file = await download(filled.document.artifact.download_url, other.apiKey ?? null);
    expect(file.status).toBe(200);
    expect(file.text).toBe('Name , IBAN , mail ');
  });

  it("cannot use the owner's uploaded template", async () => {
    const answer = await other.post(VAULT.fill, {
      template: { upload_id: templateUploadId },
      fields: ['full_name'],
    });
    expectError(answer, [404, 422], "fill with the owner's upload");
  });

  it("cannot delete the owner's field (404, as for a field it does not have)", async () => {
    const answer = await other.delete(VAULT.field('iban'));
    const unknown = await other.delete(VAULT.field('no_such_field'));
    expectError(answer, 404, "delete owner's field");
    expect(answer.text.replaceAll('iban', '<name>')).toBe(unknown.text.replaceAll('no_such_field', '<name>'));
    const mine = expectAnswer(await owner.get(VAULT.fields), 200, ListVaultFieldsResponse, 'owner fields');
    expect(mine.fields.map((f) => f.name)).toContain('iban');
  });

  it("never showed the owner's values in any answer", () => {
    expect(findSecrets(owner.bodies, OWNER_VALUES)).toEqual([]);
  });
});
