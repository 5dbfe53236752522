import { sweepVault } from '../../src/domain/documents/sweep';
import { FakeUploads } from '../documents/fake-uploads';
import { newClientId, startVaultHarness, type VaultHarness } from '../harness';
import { movableClock, rejection, textPdf } from './support';

// Fictitious values (published test IBAN, example.com): never in a reply, an error, a log line or a column.
const EMAIL = 'jane.doe@example.com';
const IBAN = 'DE89370400440532013000';
const IBAN_SPACED = 'DE89 3704 0044 0532 0130 00';
const DOCUMENT = [
  'Name: Jane Doe',
  `Email: ${EMAIL}`,
  `IBAN: ${IBAN_SPACED}`,
  'Date of birth: 1984-03-15',
  'City: Berlin',
];
const SECRETS = [EMAIL, IBAN, 'jane.doe', '0532 0130', '1984-03-15', 'Berlin'];

const uploads = new FakeUploads();
const clock = movableClock();
let h: VaultHarness;

beforeAll(async () => {
  h = await startVaultHarness({ uploads, now: clock.now });
  uploads.store = h.store;
});

afterAll(async () => {
  await h?.close();
});

function create(clientId: string, document: { text: string } | { upload_id: string }) {
  return h.vault.createExtraction({ client_id: clientId, request_id: 'req-create', document });
}

function candidateOf(
  extraction: { candidates: Array<{ field_name: string; candidate_id: string }> },
  name: string,
) {
  const found = extraction.candidates.find((candidate) => candidate.field_name === name);
  if (found === undefined) throw new Error(`no candidate ${name}`);
  return found;
}

function expectNoSecrets(text: string) {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('createExtraction', () => {
  test('from text: pending, masked candidates, sealed at rest, nothing saved as a field', async () => {
    const client = newClientId();
    const { extraction } = await create(client, { text: DOCUMENT.join('\n') });
    expect(extraction).toMatchObject({
      status: 'pending',
      version: 1,
      document: { kind: 'text', content_type: 'text/plain', pages: 1 },
    });
    expect(Date.parse(extraction.expires_at) - Date.parse(extraction.created_at)).toBe(24 * 3_600_000);
    const names = extraction.candidates.map((candidate) => candidate.field_name);
    expect(names).toEqual(expect.arrayContaining(['email', 'iban', 'date_of_birth', 'city', 'full_name']));
    expect(candidateOf(extraction, 'email')).toMatchObject({
      masked_value: 'j***@example.com',
      status: 'pending',
      page: 1,
    });
    expect(candidateOf(extraction, 'iban')).toMatchObject({ masked_value: 'DE89 **** **** **** **30 00' });
    expectNoSecrets(JSON.stringify(extraction));

    // Nothing reaches the fields before a review approves it.
    expect(await h.db.prisma.vaultField.count({ where: { clientId: client } })).toBe(0);
    // At rest: every candidate sealed; no column holds a plaintext.
    const rows = await h.db.prisma.vaultCandidate.findMany({
      where: { extractionId: extraction.extraction_id },
    });
    expect(rows).toHaveLength(extraction.candidates.length);
    for (const row of rows) {
      expect(row.ciphertext).not.toBeNull();
      expect(row.wrappedKey).not.toBeNull();
      expect(row.keyVersion).toBe(1);
      expectNoSecrets(Buffer.from(row.ciphertext ?? []).toString('latin1'));
      expectNoSecrets(JSON.stringify({ ...row, ciphertext: null, wrappedKey: null }));
    }
    expectNoSecrets(h.log.text());
  });

  test('from a PDF upload (two pages): page numbers and code-point spans; the upload is not marked used', async () => {
    const client = newClientId();
    const pdf = await textPdf([['Invoice 2026-11'], [`Email: ${EMAIL}`, `IBAN: ${IBAN_SPACED}`]]);
    const uploadId = await uploads.add(client, 'statement.pdf', 'application/pdf', pdf);
    const { extraction } = await create(client, { upload_id: uploadId });
    expect(extraction.document).toMatchObject({
      kind: 'upload',
      upload_id: uploadId,
      content_type: 'application/pdf',
      pages: 2,
    });
    const email = candidateOf(extraction, 'email');
    expect(email).toMatchObject({ page: 2, masked_value: 'j***@example.com' });
    expect(candidateOf(extraction, 'iban')).toMatchObject({ page: 2 });
    const request = uploads.resolveRequests.at(-1);
    expect(request).toMatchObject({ slug: 'vault-document', upload_ids: [uploadId] });
    expect(request?.run_id).toBeUndefined();
  });

  test('from an HTML upload: the text without tags', async () => {
    const client = newClientId();
    const html = `<html><body><table><tr><td>Email:</td><td>${EMAIL}</td></tr></table><p>IBAN: ${IBAN_SPACED}</p></body></html>`;
    const uploadId = await uploads.add(client, 'form.html', 'text/html', Buffer.from(html));
    const { extraction } = await create(client, { upload_id: uploadId });
    expect(extraction.document).toMatchObject({ content_type: 'text/html', pages: 1 });
    expect(extraction.candidates.map((candidate) => candidate.field_name)).toEqual(
      expect.arrayContaining(['email', 'iban']),
    );
  });

  test('a document without candidates is reviewed at once', async () => {
    const { extraction } = await create(newClientId(), { text: 'nothing personal in here' });
    expect(extraction).toMatchObject({ status: 'reviewed', candidates: [] });
    expect(extraction.reviewed_at).toBe(extraction.created_at);
  });

  test('422 for a damaged PDF, an encrypted PDF, another content type, bad UTF-8, an oversized text; 404 for another client’s upload', async () => {
    const client = newClientId();
    const damaged = await uploads.add(
      client,
      'bad.pdf',
      'application/pdf',
      Buffer.from('%PDF-1.7\nnot really a pdf'),
    );
    const damagedError = await rejection(create(client, { upload_id: damaged }));
    expect(damagedError).toMatchObject({ status: 422 });
    expect(damagedError.message).toContain('not a readable PDF');

    const locked = await uploads.add(
      client,
      'locked.pdf',
      'application/pdf',
      await textPdf([[`Email: ${EMAIL}`]], { userPassword: 'pw' }),
    );
    const lockedError = await rejection(create(client, { upload_id: locked }));
    expect(lockedError).toMatchObject({ status: 422 });
    expect(lockedError.message).toContain('encrypted');

    const image = await uploads.add(client, 'x.png', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect((await rejection(create(client, { upload_id: image }))).status).toBe(422);

    const latin1 = await uploads.add(
      client,
      'x.txt',
      'text/plain',
      Buffer.from([0x45, 0x6d, 0xe4, 0x69, 0x6c]),
    );
    const latin1Error = await rejection(create(client, { upload_id: latin1 }));
    expect(latin1Error).toMatchObject({ status: 422, message: expect.stringContaining('UTF-8') });

    const big = await uploads.add(client, 'big.md', 'text/markdown', Buffer.alloc(1024 * 1024 + 1, 0x61));
    const bigError = await rejection(create(client, { upload_id: big }));
    expect(bigError).toMatchObject({
      status: 422,
      message: expect.stringContaining('larger than 1048576 bytes'),
    });

    const mine = await uploads.add(client, 'mine.txt', 'text/plain', Buffer.from(`Email: ${EMAIL}`));
    expect((await rejection(create(newClientId(), { upload_id: mine }))).status).toBe(404);
    expectNoSecrets(h.log.text());
  });
});

describe('list and get', () => {
  test('owner only, newest first, status filter; another client gets the same 404 as an unknown id', async () => {
    const owner = newClientId();
    const first = (await create(owner, { text: `Email: ${EMAIL}` })).extraction;
    const second = (await create(owner, { text: `IBAN: ${IBAN_SPACED}` })).extraction;
    const listed = await h.vault.listExtractions({ client_id: owner, query: { limit: 20 } });
    expect(listed.extractions.map((extraction) => extraction.extraction_id)).toEqual([
      second.extraction_id,
      first.extraction_id,
    ]);
    const reviewed = await h.vault.listExtractions({
      client_id: owner,
      query: { status: 'reviewed', limit: 20 },
    });
    expect(reviewed.count).toBe(0);

    const other = newClientId();
    expect((await h.vault.listExtractions({ client_id: other, query: { limit: 20 } })).count).toBe(0);
    const foreign = await rejection(
      h.vault.getExtraction({ client_id: other, extraction_id: first.extraction_id }),
    );
    const unknown = await rejection(
      h.vault.getExtraction({ client_id: other, extraction_id: newClientId() }),
    );
    expect(foreign.status).toBe(404);
    expect(foreign.message.replace(first.extraction_id, 'X')).toBe(
      unknown.message.replace(/[0-9a-f-]{36}/, 'X'),
    );
    const review = await rejection(
      h.vault.reviewExtraction({
        client_id: other,
        request_id: 'r',
        extraction_id: first.extraction_id,
        review: {
          expected_version: 1,
          decisions: [{ candidate_id: first.candidates[0]?.candidate_id ?? '', action: 'reject' }],
        },
      }),
    );
    expect(review.status).toBe(404);
  });
});

describe('reviewExtraction', () => {
  function review(clientId: string, extractionId: string, expectedVersion: number, decisions: unknown[]) {
    return h.vault.reviewExtraction({
      client_id: clientId,
      request_id: 'req-review',
      extraction_id: extractionId,
      // The RPC parses the request: a shape the contract refuses never reaches the domain.
      review: { expected_version: expectedVersion, decisions } as never,
    });
  }

  test('approve, approve renamed, correct, reject: fields saved, ciphertexts destroyed, audit for decryptions only', async () => {
    const client = newClientId();
    const { extraction } = await create(client, { text: DOCUMENT.join('\n') });
    const email = candidateOf(extraction, 'email');
    const iban = candidateOf(extraction, 'iban');
    const city = candidateOf(extraction, 'city');
    const dob = candidateOf(extraction, 'date_of_birth');

    const first = await review(client, extraction.extraction_id, 1, [
      { candidate_id: email.candidate_id, action: 'approve' },
      { candidate_id: iban.candidate_id, action: 'approve', field_name: 'salary_iban' },
      { candidate_id: city.candidate_id, action: 'approve', value: 'Hamburg' },
      { candidate_id: dob.candidate_id, action: 'reject' },
    ]);
    expect(first.extraction).toMatchObject({ status: 'pending', version: 2 });
    expect(first.saved_fields.map((field) => [field.name, field.version, field.source.kind])).toEqual([
      ['email', 1, 'extraction'],
      ['salary_iban', 1, 'extraction'],
      ['city', 1, 'extraction'],
    ]);
    expect(first.saved_fields[2]?.masked_value).toBe('H***');
    const byId = new Map(first.extraction.candidates.map((candidate) => [candidate.candidate_id, candidate]));
    expect(byId.get(iban.candidate_id)).toMatchObject({
      status: 'approved',
      saved_as: { name: 'salary_iban', version: 1 },
    });
    expect(byId.get(dob.candidate_id)?.status).toBe('rejected');
    expectNoSecrets(JSON.stringify(first));

    const decided = await h.db.prisma.vaultCandidate.findMany({
      where: { id: { in: [email.candidate_id, iban.candidate_id, city.candidate_id, dob.candidate_id] } },
    });
    for (const row of decided)
      expect([row.ciphertext, row.wrappedKey, row.keyVersion]).toEqual([null, null, null]);

    // Decrypted: email and iban (approve as extracted); the corrected city was never decrypted.
    const audit = await h.db.prisma.vaultAuditEvent.findMany({
      where: { clientId: client },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((event) => [event.purpose, event.field, event.subjectId, event.requestId])).toEqual([
      ['approve', 'email', extraction.extraction_id, 'req-review'],
      ['approve', 'salary_iban', extraction.extraction_id, 'req-review'],
    ]);

    // The rest rejected: nothing pending is left, so the extraction is reviewed.
    const rest = first.extraction.candidates.filter((candidate) => candidate.status === 'pending');
    const second = await review(
      client,
      extraction.extraction_id,
      2,
      rest.map((candidate) => ({ candidate_id: candidate.candidate_id, action: 'reject' })),
    );
    expect(second.extraction).toMatchObject({ status: 'reviewed', version: 3 });
    expect(second.extraction.reviewed_at).toBeDefined();
    const again = await rejection(
      review(client, extraction.extraction_id, 3, [{ candidate_id: email.candidate_id, action: 'reject' }]),
    );
    expect(again.status).toBe(409);
    expectNoSecrets(h.log.text());
  });

  test('stale version 409; unknown candidate 422; a failing decision applies nothing', async () => {
    const client = newClientId();
    const { extraction } = await create(client, { text: DOCUMENT.join('\n') });
    const email = candidateOf(extraction, 'email');
    const iban = candidateOf(extraction, 'iban');

    const stale = await rejection(
      review(client, extraction.extraction_id, 2, [{ candidate_id: email.candidate_id, action: 'reject' }]),
    );
    expect(stale).toMatchObject({ status: 409, message: expect.stringContaining('version 1') });

    const foreign = (await create(client, { text: `Email: ${EMAIL}` })).extraction.candidates[0]
      ?.candidate_id;
    const unknown = await rejection(
      review(client, extraction.extraction_id, 1, [
        { candidate_id: email.candidate_id, action: 'approve' },
        { candidate_id: foreign, action: 'reject' },
      ]),
    );
    expect(unknown).toMatchObject({ status: 422, message: expect.stringContaining('decisions[1]') });

    // A corrected value its type refuses: 422 naming the decision, not the value; the approval before it rolled back.
    const invalid = await rejection(
      review(client, extraction.extraction_id, 1, [
        { candidate_id: email.candidate_id, action: 'approve' },
        { candidate_id: iban.candidate_id, action: 'approve', value: 'DE00 9999 9999 9999 9999 99' },
      ]),
    );
    expect(invalid).toMatchObject({ status: 422, message: expect.stringContaining('decisions[1].value') });
    expect(invalid.message).not.toContain('9999');
    expect(await h.db.prisma.vaultField.count({ where: { clientId: client } })).toBe(0);
    // The e-mail was decrypted before decisions[1] failed: its line stays (a trail never misses a decryption).
    const audit = await h.db.prisma.vaultAuditEvent.findMany({ where: { clientId: client } });
    expect(audit.map((event) => [event.purpose, event.field])).toEqual([['approve', 'email']]);
    const unchanged = await h.vault.getExtraction({
      client_id: client,
      extraction_id: extraction.extraction_id,
    });
    expect(unchanged.extraction.version).toBe(1);
    expect(unchanged.extraction.candidates.every((candidate) => candidate.status === 'pending')).toBe(true);
  });

  test('into an existing field: 409 without field_version or with a stale one, update with the right one', async () => {
    const client = newClientId();
    await h.vault.saveField({
      client_id: client,
      request_id: 'r',
      field: { name: 'email', type: 'email', value: 'old.address@example.com' },
    });
    const { extraction } = await create(client, { text: `Email: ${EMAIL}` });
    const email = candidateOf(extraction, 'email');
    const without = await rejection(
      review(client, extraction.extraction_id, 1, [{ candidate_id: email.candidate_id, action: 'approve' }]),
    );
    expect(without).toMatchObject({ status: 409, message: expect.stringContaining('field_version 1') });
    const staleField = await rejection(
      review(client, extraction.extraction_id, 1, [
        { candidate_id: email.candidate_id, action: 'approve', field_version: 4 },
      ]),
    );
    expect(staleField.status).toBe(409);
    const done = await review(client, extraction.extraction_id, 1, [
      { candidate_id: email.candidate_id, action: 'approve', field_version: 1 },
    ]);
    expect(done.saved_fields[0]).toMatchObject({
      name: 'email',
      version: 2,
      masked_value: 'j***@example.com',
    });
    expect(done.extraction.status).toBe('reviewed');
  });

  test('two reviews of one version at once: one applies, the other 409', async () => {
    const client = newClientId();
    const { extraction } = await create(client, { text: DOCUMENT.join('\n') });
    const email = candidateOf(extraction, 'email');
    const results = await Promise.allSettled(
      [0, 1, 2].map((i) =>
        review(client, extraction.extraction_id, 1, [
          { candidate_id: email.candidate_id, action: 'approve', field_name: `email_${i}` },
        ]),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(await h.db.prisma.vaultField.count({ where: { clientId: client } })).toBe(1);
  });
});

describe('expiry', () => {
  test('past its time: shown expired, review 409, the sweep destroys the candidates', async () => {
    const client = newClientId();
    const { extraction } = await create(client, { text: DOCUMENT.join('\n') });
    const email = candidateOf(extraction, 'email');
    clock.advance(24 * 3_600_000 + 1_000);
    try {
      const shown = await h.vault.getExtraction({
        client_id: client,
        extraction_id: extraction.extraction_id,
      });
      expect(shown.extraction.status).toBe('expired');
      const filtered = await h.vault.listExtractions({
        client_id: client,
        query: { status: 'expired', limit: 20 },
      });
      expect(filtered.extractions.map((entry) => entry.extraction_id)).toContain(extraction.extraction_id);
      const late = await rejection(
        h.vault.reviewExtraction({
          client_id: client,
          request_id: 'r',
          extraction_id: extraction.extraction_id,
          review: {
            expected_version: 1,
            decisions: [{ candidate_id: email.candidate_id, action: 'approve' }],
          },
        }),
      );
      expect(late).toMatchObject({ status: 409, message: expect.stringContaining('expired') });

      const swept = await sweepVault(h.deps);
      expect(swept.expired_extractions).toBeGreaterThanOrEqual(1);
      const row = await h.db.prisma.vaultExtraction.findUniqueOrThrow({
        where: { id: extraction.extraction_id },
      });
      expect(row.status).toBe('expired');
      const candidates = await h.db.prisma.vaultCandidate.findMany({
        where: { extractionId: extraction.extraction_id },
      });
      expect(candidates.length).toBeGreaterThan(0);
      for (const candidate of candidates)
        expect([candidate.ciphertext, candidate.wrappedKey]).toEqual([null, null]);
      // Idempotent: a second pass finds nothing of it.
      await sweepVault(h.deps);
      expect(await h.db.prisma.vaultField.count({ where: { clientId: client } })).toBe(0);
    } finally {
      clock.advance(-(24 * 3_600_000 + 1_000));
    }
  });
});
