import { randomBytes, randomUUID } from 'node:crypto';
import { ExtractionResponse, SaveVaultFieldResponse } from '@svc/contracts';
import { SHARED_STACK_BEFORE_ALL_MS, type SharedTestStack, sharedTestStack } from '@svc/testkit';
import { putBytes, sessionOk } from '../files/support';
import {
  brokenIban,
  expectAnswer,
  expectError,
  findSecrets,
  randomIban,
  spacedIban,
  VAULT,
  VAULT_SCOPES,
  VAULT_UPLOAD_SLUG,
  VaultClient,
} from './support';

/**
 * Issue 16 "Bad input and abuse": every refusal of the vault routes is an ErrorResponse with the
 * right status. Scopes (each route without its scope → 403, with only its scope → allowed, no key
 * → 401); values failing their type's check (422 naming the field and the rule, never echoing the
 * value); unknown types and names; a template that is not what its type says; oversized and
 * malformed bodies.
 */

jest.setTimeout(120_000);

const tag = randomBytes(4).toString('hex');

let stack: SharedTestStack;
let client: VaultClient;
let extractionId: string;
let candidateId: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  const key = await stack.createApiKey({ scopes: VAULT_SCOPES, clientName: `vault-refusals-${tag}` });
  client = new VaultClient(stack, key.apiKey);
  expectAnswer(
    await client.post(VAULT.fields, { name: 'home_city', type: 'city', value: 'Lübeck' }),
    201,
    SaveVaultFieldResponse,
    'save',
  );
  const created = expectAnswer(
    await client.post(VAULT.extractions, { document: { text: `E-mail: someone.${tag}@example.com` } }),
    201,
    ExtractionResponse,
    'extraction',
  );
  extractionId = created.extraction.extraction_id;
  candidateId = created.extraction.candidates[0]?.candidate_id ?? randomUUID();
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await stack?.close();
});

interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  scope: 'vault:read' | 'vault:write' | 'vault:fill';
}

/** Every vault route with a valid request and the scope it needs (README's scope table). */
const ROUTES: RouteCase[] = [
  { name: 'profile', method: 'GET', path: () => VAULT.profile, scope: 'vault:read' },
  { name: 'list fields', method: 'GET', path: () => VAULT.fields, scope: 'vault:read' },
  {
    name: 'save field',
    method: 'POST',
    path: () => VAULT.fields,
    body: () => ({ name: `f_${randomBytes(4).toString('hex')}`, type: 'company', value: 'ACME GmbH' }),
    scope: 'vault:write',
  },
  { name: 'delete field', method: 'DELETE', path: () => VAULT.field('no_such_field'), scope: 'vault:write' },
  { name: 'list extractions', method: 'GET', path: () => VAULT.extractions, scope: 'vault:read' },
  {
    name: 'create extraction',
    method: 'POST',
    path: () => VAULT.extractions,
    body: () => ({ document: { text: 'Phone: +49 30 901820 45' } }),
    scope: 'vault:write',
  },
  { name: 'read extraction', method: 'GET', path: () => VAULT.extraction(extractionId), scope: 'vault:read' },
  {
    name: 'review extraction',
    method: 'POST',
    path: () => VAULT.review(randomUUID()),
    body: () => ({ expected_version: 1, decisions: [{ candidate_id: candidateId, action: 'reject' }] }),
    scope: 'vault:write',
  },
  {
    name: 'fill document',
    method: 'POST',
    path: () => VAULT.fill,
    body: () => ({ template: { text: 'Hi {{home_city}}', format: 'text' }, fields: ['home_city'] }),
    scope: 'vault:fill',
  },
  // Filled documents lead to plaintext (their links): vault:fill, not vault:read (decision VG2).
  { name: 'list documents', method: 'GET', path: () => VAULT.documents, scope: 'vault:fill' },
  { name: 'read document', method: 'GET', path: () => VAULT.document(randomUUID()), scope: 'vault:fill' },
  { name: 'audit', method: 'GET', path: () => VAULT.audit, scope: 'vault:read' },
];

function send(as: VaultClient, route: RouteCase) {
  return as.fetch(route.path(), {
    method: route.method,
    ...(route.body === undefined ? {} : { json: route.body() }),
  });
}

describe('scopes', () => {
  it.each(ROUTES)('$name: 403 without $scope, allowed with only it, 401 without a key', async (route) => {
    const without = await stack.createApiKey({ scopes: VAULT_SCOPES.filter((s) => s !== route.scope) });
    const only = await stack.createApiKey({ scopes: [route.scope] });
    expect(expectError(await send(client.withKey(without.apiKey), route), 403, route.name)).toContain(
      route.scope,
    );
    const allowed = await send(client.withKey(only.apiKey), route);
    expect([401, 403]).not.toContain(allowed.status);
    expectError(await send(client.withKey(undefined), route), 401, `${route.name} without a key`);
  });

  it('fill-document refuses a key with read and write but not vault:fill', async () => {
    const key = await stack.createApiKey({ scopes: ['vault:read', 'vault:write', 'uploads:write'] });
    const answer = await client.withKey(key.apiKey).post(VAULT.fill, {
      template: { text: 'Hi {{home_city}}', format: 'text' },
      fields: ['home_city'],
    });
    expect(expectError(answer, 403, 'fill without vault:fill')).toContain('vault:fill');
  });
});

describe('values that fail their type', () => {
  const iban = randomIban();
  /** A field name unlike its type, so "names the field" means the name, not the type. */
  const CASES = [
    { type: 'iban', value: spacedIban(brokenIban(iban)), rule: /iban|mod|check/i },
    { type: 'iban', value: `${iban}00`, rule: /iban|length/i },
    { type: 'email', value: `not-an-address.${tag}.example.com`, rule: /e-?mail|address|@/i },
    { type: 'phone', value: `0301234${tag.replace(/\D/g, '7')}`, rule: /e\.?164|phone|country|\+/i },
    { type: 'date_of_birth', value: '2091-02-30', rule: /date|YYYY|future|calendar/i },
    { type: 'date_of_birth', value: `31/12/1990-${tag}`, rule: /date|YYYY/i },
    { type: 'country', value: 'Atlantis', rule: /country|3166|alpha/i },
    { type: 'payment_card', value: '4111 1111 1111 1112', rule: /card|luhn|check/i },
    { type: 'city', value: `Berlin\u0007${tag}`, rule: /control|character/i },
  ] as const;

  it.each(CASES)('$type "$value": 422 naming the field and the rule, not echoing the value', async (c) => {
    const name = `my_${c.type}_${tag}`.replace(/[^a-z0-9_]/g, '_');
    const error = expectError(
      await client.post(VAULT.fields, { name, type: c.type, value: c.value }),
      422,
      `${c.type} ${c.value}`,
    );
    expect(error).toContain(name);
    expect(error).toMatch(c.rule);
    expect(findSecrets([{ what: 'the error', text: error }], { value: c.value })).toEqual([]);
  });

  it('a corrected value in a review is validated too (422), and nothing is saved', async () => {
    const bad = spacedIban(brokenIban(randomIban()));
    const answer = await client.post(VAULT.review(extractionId), {
      expected_version: 1,
      decisions: [
        { candidate_id: candidateId, action: 'approve', field_name: 'refund_iban', type: 'iban', value: bad },
      ],
    });
    // Names the decision and its value (the field is the decision's), and the rule.
    const error = expectError(answer, 422, 'review with a bad value');
    expect(error).toMatch(/decisions\[0\]\.value/);
    expect(error).toMatch(/mod-97/);
    expect(findSecrets([{ what: 'the error', text: error }], { value: bad })).toEqual([]);
    const fields = await client.get(VAULT.fields);
    expect(fields.text).not.toContain('refund_iban');
  });

  it('refuses an unknown type and a bad field name with 422', async () => {
    const type = await client.post(VAULT.fields, { name: 'shoe_size', type: 'shoe_size', value: '44' });
    expect(expectError(type, 422, 'unknown type')).toMatch(/type/);
    const name = await client.post(VAULT.fields, { name: 'Home-City', type: 'city', value: 'Kiel' });
    expect(expectError(name, 422, 'bad name')).toMatch(/name/);
    const extra = await client.post(VAULT.fields, { name: 'kiel', type: 'city', value: 'Kiel', owner: 'x' });
    expectError(extra, 422, 'unknown property');
  });
});

describe('documents and templates', () => {
  it('refuses text declared as a PDF at the upload (422, content sniffing)', async () => {
    const bytes = Buffer.from('Name: {{home_city}}\nThis is plain text, not a PDF.\n', 'utf8');
    const session = await sessionOk(
      stack,
      client.apiKey ?? '',
      VAULT_UPLOAD_SLUG,
      { filename: 'form.pdf', content_type: 'application/pdf' },
      bytes,
    );
    const put = await putBytes(stack, session, bytes);
    expectError(put, 422, 'PUT text as PDF');
  });

  it('refuses a file that starts like a PDF but is not one (422 at the upload: it never reaches a fill)', async () => {
    const bytes = Buffer.concat([
      Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
      randomBytes(2_000),
      Buffer.from('\n%%EOF\n'),
    ]);
    const session = await sessionOk(
      stack,
      client.apiKey ?? '',
      VAULT_UPLOAD_SLUG,
      { filename: 'broken.pdf', content_type: 'application/pdf' },
      bytes,
    );
    expect(expectError(await putBytes(stack, session, bytes), 422, 'PUT a broken PDF')).toMatch(/pdf/i);
    // The session's upload id names no usable file: a fill or an extraction with it is refused.
    const fill = await client.post(VAULT.fill, {
      template: { upload_id: session.upload_id },
      fields: ['home_city'],
    });
    expectError(fill, [404, 409, 422], 'fill with the refused upload');
    const extraction = await client.post(VAULT.extractions, { document: { upload_id: session.upload_id } });
    expectError(extraction, [404, 409, 422], 'extract from the refused upload');
  });

  it('refuses an upload id that does not exist (404)', async () => {
    const id = randomUUID();
    expectError(await client.post(VAULT.extractions, { document: { upload_id: id } }), 404, 'extract');
    expectError(
      await client.post(VAULT.fill, { template: { upload_id: id }, fields: ['home_city'] }),
      404,
      'fill',
    );
  });

  it('refuses an oversized document: past the text limit (422 or 413), past the body limit (413)', async () => {
    const marker = `oversized-${tag}`;
    const justOver = `${marker} ${'x'.repeat(200_001)}`;
    const over = await client.post(VAULT.extractions, { document: { text: justOver } });
    expectError(over, [413, 422], 'text over the limit');
    expect(over.text).not.toContain(marker);
    const huge = `${marker} ${'y'.repeat(1_400_000)}`;
    const tooLarge = await client.post(VAULT.extractions, { document: { text: huge } });
    expectError(tooLarge, 413, 'body over the limit');
    const template = await client.post(VAULT.fill, {
      template: { text: `{{home_city}} ${'z'.repeat(200_001)}`, format: 'text' },
      fields: ['home_city'],
    });
    expectError(template, [413, 422], 'template over the limit');
  });

  it('refuses malformed JSON with 400 on every route that takes a body', async () => {
    for (const path of [VAULT.fields, VAULT.extractions, VAULT.fill, VAULT.review(extractionId)]) {
      const answer = await client.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": "home_city", "value": "Lüb',
      });
      expectError(answer, 400, `malformed JSON to ${path}`);
    }
  });

  it('refuses a fill with no allowed field, and a review with no decision (422)', async () => {
    expectError(
      await client.post(VAULT.fill, { template: { text: '{{home_city}}', format: 'text' }, fields: [] }),
      422,
      'fill with no fields',
    );
    expectError(
      await client.post(VAULT.review(extractionId), { expected_version: 1, decisions: [] }),
      422,
      'review with no decision',
    );
  });
});
