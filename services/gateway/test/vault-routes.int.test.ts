import { randomUUID } from 'node:crypto';
import {
  type Artifact,
  ErrorResponse,
  VAULT_DOCUMENT_TEXT_MAX_CHARACTERS,
  VAULT_DOCUMENT_UPLOAD_SLUG,
} from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import { uploadFile } from '@svc/test-platform';
import fc from 'fast-check';
import { z } from 'zod';
import { DOCUMENT_JSON_BODY_LIMIT_BYTES } from '../src/route-kit';
import { type AppHarness, CLIENT_ID, startAppHarness } from './support/app-harness';
import { fuzzBody, fuzzUrlText, operationsOf } from './support/fuzz-requests';

/**
 * The vault routes over HTTP with the vault's real handlers in this process (with the uploads
 * service behind it; services/gateway/test/vault/ runs the walk-through across processes): scopes,
 * no-store, the strict schemas and their 422s, status codes and Location, what reaches the RPC (the
 * key's client, the request id, the public base), the body limit of the document routes, and that
 * no value sent is ever echoed in an answer or a log line.
 */

// A value no answer or log line may contain.
const MARKER = 'MARKER-4f1d9c-secret';
/** A published test IBAN (fictitious), and as a document would print it. */
const IBAN = 'DE89370400440532013000';
const IBAN_SPACED = 'DE89 3704 0044 0532 0130 00';

const ALL_VAULT = ['vault:read', 'vault:write', 'vault:fill'] as const;

const Extraction = z.object({
  extraction: z.object({
    extraction_id: z.string(),
    candidates: z.array(z.object({ candidate_id: z.string(), type: z.string() })),
  }),
});

describe('vault routes (real vault handlers)', () => {
  let app: AppHarness;
  let key: string;

  beforeAll(async () => {
    app = await startAppHarness();
    key = app.issueKey([...ALL_VAULT]);
  });
  afterAll(() => app.close());
  beforeEach(() => app.platform.rpc.clearFaults());

  /** Every call the vault got, in order. */
  const vaultCalls = () => app.platform.rpc.calls('vault');
  /** The vault's last call: its method and request. */
  const last = () => {
    const latest = vaultCalls().at(-1);
    return latest === undefined ? undefined : { method: latest.method, request: latest.request };
  };
  /** An extraction of the key's client, made from `text` through the route. */
  const extractFrom = async (text: string) =>
    Extraction.parse(await (await call('/api/vault/extractions', { json: { document: { text } } })).json())
      .extraction;

  function call(
    path: string,
    init: { method?: string; json?: unknown; key?: string; headers?: object } = {},
  ) {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${init.key ?? key}`,
      ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(init.headers as Record<string, string> | undefined),
    };
    return app.fetch(path, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers,
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
  }

  async function errorOf(response: Response): Promise<string> {
    return ErrorResponse.parse(await response.json()).error;
  }

  describe('fields', () => {
    it('POST creates (201) then updates (200), with the key client and the request id in the RPC', async () => {
      const created = await call('/api/vault/fields', {
        json: { name: 'nickname', type: 'free_text', value: MARKER },
        headers: { 'X-Request-Id': 'req-save-1' },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store');
      const text = await created.text();
      expect(text).not.toContain(MARKER);
      expect(JSON.parse(text)).toMatchObject({ ok: true, outcome: 'created', field: { name: 'nickname' } });
      expect(last()).toEqual({
        method: 'saveField',
        request: {
          client_id: CLIENT_ID,
          request_id: 'req-save-1',
          field: { name: 'nickname', type: 'free_text', value: MARKER },
        },
      });

      const updated = await call('/api/vault/fields', {
        json: { name: 'nickname', type: 'free_text', value: MARKER, expected_version: 1 },
      });
      expect(updated.status).toBe(200);
      expect(await updated.json()).toMatchObject({ outcome: 'updated', field: { version: 2 } });
      // Without X-Request-Id the gateway's own id (echoed in the header) goes to the audit trail.
      expect(last()?.request).toMatchObject({ request_id: updated.headers.get('x-request-id') });
    });

    it('GET lists, no-store', async () => {
      const response = await call('/api/vault/fields');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toMatchObject({ ok: true, fields: [{ name: 'nickname' }] });
      expect(last()).toEqual({ method: 'listFields', request: { client_id: CLIENT_ID } });
    });

    it.each([
      ['a bad name', { name: 'Bad-Name', type: 'email', value: MARKER }, /^name: must be 1-64 characters/],
      [
        'an unknown type',
        { name: 'x', type: 'shoe_size', value: MARKER },
        /^type: must be one of "given_name"/,
      ],
      [
        'a value too long',
        { name: 'x', type: 'email', value: `${MARKER}${'x'.repeat(4_000)}` },
        /^value: must be at most 4000/,
      ],
      ['a number as value', { name: 'x', type: 'email', value: 42 }, /^value: must be a string, got number$/],
      [
        'an empty value',
        { name: 'x', type: 'email', value: '' },
        /^value: must be at least 1 characters long$/,
      ],
      [
        'expected_version 0',
        { name: 'x', type: 'email', value: MARKER, expected_version: 0 },
        /^expected_version: /,
      ],
      [
        'an unknown property',
        { name: 'x', type: 'email', value: MARKER, extra: MARKER },
        /unknown property "extra"/,
      ],
      ['no value', { name: 'x', type: 'email' }, /^value: required$/],
    ])('422 naming the field, never the value: %s', async (_label, body, message) => {
      const before = vaultCalls().length;
      const response = await call('/api/vault/fields', { json: body });
      expect(response.status).toBe(422);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const error = await errorOf(response);
      expect(error).toMatch(message);
      expect(error).not.toContain(MARKER);
      expect(vaultCalls().length).toBe(before);
    });

    it('DELETE passes the name and a coerced expected_version; 422 for a bad name or query', async () => {
      const response = await call('/api/vault/fields/nickname?expected_version=2', { method: 'DELETE' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true, deleted: { name: 'nickname', version: 2 } });
      expect(last()).toMatchObject({
        method: 'deleteField',
        request: { client_id: CLIENT_ID, name: 'nickname', expected_version: 2 },
      });
      expect((await call('/api/vault/fields/Nick', { method: 'DELETE' })).status).toBe(422);
      const unknown = await call('/api/vault/fields/nick?force=1', { method: 'DELETE' });
      expect(unknown.status).toBe(422);
      expect(await errorOf(unknown)).toMatch(/unknown property "force"/);
    });

    it("passes the vault's errors through (404, 409), no-store", async () => {
      const field = { name: 'nickname_two', type: 'free_text', value: MARKER };
      await call('/api/vault/fields', { json: field });
      await call('/api/vault/fields', { json: { ...field, expected_version: 1 } });
      // Saved again without expected_version: the vault's 409.
      const conflict = await call('/api/vault/fields', { json: field });
      expect(conflict.status).toBe(409);
      expect(await errorOf(conflict)).toMatch(/version 2/);
      const missing = await call('/api/vault/fields/nope', { method: 'DELETE' });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('profile and audit', () => {
    it('GET /profile answers the profile; a query parameter is 422', async () => {
      const response = await call('/api/vault/profile');
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ ok: true, profile: { key_version: 1 } });
      expect((await call('/api/vault/profile?verbose=1')).status).toBe(422);
    });

    it('GET /audit parses limit and cursor strictly', async () => {
      expect((await call('/api/vault/audit?limit=10&cursor=42')).status).toBe(200);
      expect(last()).toEqual({
        method: 'audit',
        request: { client_id: CLIENT_ID, query: { limit: 10, cursor: '42' } },
      });
      for (const query of ['limit=0', 'limit=201', 'cursor=abc', 'since=1']) {
        expect({ query, status: (await call(`/api/vault/audit?${query}`)).status }).toEqual({
          query,
          status: 422,
        });
      }
    });
  });

  describe('extractions', () => {
    it('POST from text: 201 with Location; the text reaches the vault, never the answer', async () => {
      const response = await call('/api/vault/extractions', {
        json: { document: { text: `IBAN: ${MARKER}` } },
      });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { extraction: { extraction_id: string } };
      expect(response.headers.get('location')).toBe(
        `/api/vault/extractions/${body.extraction.extraction_id}`,
      );
      expect(JSON.stringify(body)).not.toContain(MARKER);
      expect(last()).toMatchObject({
        method: 'createExtraction',
        request: { client_id: CLIENT_ID, document: { text: `IBAN: ${MARKER}` } },
      });
    });

    it('POST from an upload; 422 for both or neither source', async () => {
      const uploadId = await uploadFile(app.platform, CLIENT_ID, VAULT_DOCUMENT_UPLOAD_SLUG, {
        filename: 'letter.txt',
        contentType: 'text/plain',
        bytes: Buffer.from(`IBAN: ${IBAN_SPACED}`),
      });
      const ok = await call('/api/vault/extractions', { json: { document: { upload_id: uploadId } } });
      expect(ok.status).toBe(201);
      for (const document of [{ text: 'a', upload_id: uploadId }, {}, { text: '' }]) {
        const refused = await call('/api/vault/extractions', { json: { document } });
        expect(refused.status).toBe(422);
        expect(await errorOf(refused)).toMatch(/^document/);
      }
    });

    it('GET lists with status and limit; GET one; 422 for a malformed id', async () => {
      expect((await call('/api/vault/extractions?status=pending&limit=5')).status).toBe(200);
      expect(last()).toEqual({
        method: 'listExtractions',
        request: { client_id: CLIENT_ID, query: { status: 'pending', limit: 5 } },
      });
      expect((await call('/api/vault/extractions?status=done')).status).toBe(422);
      const id = (await extractFrom(`IBAN: ${IBAN_SPACED}`)).extraction_id;
      expect((await call(`/api/vault/extractions/${id}`)).status).toBe(200);
      expect(last()).toEqual({
        method: 'getExtraction',
        request: { client_id: CLIENT_ID, extraction_id: id },
      });
      expect((await call('/api/vault/extractions/not-a-uuid')).status).toBe(422);
    });

    it('POST review passes the decisions; a corrected value is never echoed in a 422', async () => {
      const extraction = await extractFrom(`IBAN: ${IBAN_SPACED}\nEmail: jane.doe@example.com`);
      const id = extraction.extraction_id;
      const candidate = extraction.candidates.find((found) => found.type === 'iban')?.candidate_id;
      const other = extraction.candidates.find((found) => found.type === 'email')?.candidate_id;
      if (candidate === undefined || other === undefined)
        throw new Error('an IBAN and an email candidate expected');
      const review = {
        expected_version: 1,
        decisions: [
          { candidate_id: candidate, action: 'approve', value: IBAN, field_name: 'iban' },
          { candidate_id: other, action: 'reject' },
        ],
      };
      const response = await call(`/api/vault/extractions/${id}/review`, {
        json: review,
        headers: { 'X-Request-Id': 'req-review-1' },
      });
      expect(response.status).toBe(200);
      expect(last()).toEqual({
        method: 'reviewExtraction',
        request: { client_id: CLIENT_ID, request_id: 'req-review-1', extraction_id: id, review },
      });
      const refused = await call(`/api/vault/extractions/${id}/review`, {
        json: {
          expected_version: 1,
          decisions: [{ candidate_id: candidate, action: 'reject', value: MARKER }],
        },
      });
      expect(refused.status).toBe(422);
      expect(await errorOf(refused)).not.toContain(MARKER);
      const unknownAction = await call(`/api/vault/extractions/${id}/review`, {
        json: { expected_version: 1, decisions: [{ candidate_id: candidate, action: 'maybe' }] },
      });
      expect(unknownAction.status).toBe(422);
      expect(await errorOf(unknownAction)).toMatch(
        /decisions\[0\]\.action: must be one of "approve", "reject"/,
      );
    });
  });

  describe('document body limit', () => {
    // 200,000 non-ASCII characters as an encoder that escapes them all writes them: 1.2 MB of JSON,
    // over the default JSON_BODY_LIMIT (1mb) of every other route.
    const escapedDocument = `{"document":{"text":"${'\\u6771'.repeat(VAULT_DOCUMENT_TEXT_MAX_CHARACTERS)}"}}`;

    it('takes the longest document, however it is escaped', async () => {
      expect(escapedDocument.length).toBeGreaterThan(1024 * 1024);
      expect(escapedDocument.length).toBeLessThanOrEqual(DOCUMENT_JSON_BODY_LIMIT_BYTES);
      const response = await app.fetch('/api/vault/extractions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: escapedDocument,
      });
      expect(response.status).toBe(201);
      expect(last()).toMatchObject({
        method: 'createExtraction',
        request: { document: { text: '東'.repeat(VAULT_DOCUMENT_TEXT_MAX_CHARACTERS) } },
      });
    });

    it('413 naming its own limit past it; the other vault routes keep JSON_BODY_LIMIT', async () => {
      const tooLong = `{"document":{"text":"${'x'.repeat(DOCUMENT_JSON_BODY_LIMIT_BYTES)}"}}`;
      const response = await app.fetch('/api/vault/extractions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: tooLong,
      });
      expect(response.status).toBe(413);
      expect(await errorOf(response)).toBe(
        `request body too large (limit ${DOCUMENT_JSON_BODY_LIMIT_BYTES} bytes)`,
      );
      const field = await app.fetch('/api/vault/fields', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: escapedDocument,
      });
      expect(field.status).toBe(413);
      expect(await errorOf(field)).toBe('request body too large (limit 1mb)');
    });

    it('415 for a body that is not JSON, before reading it', async () => {
      const response = await app.fetch('/api/vault/fill-document', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/plain' },
        body: 'Dear {{given_name}}',
      });
      expect(response.status).toBe(415);
    });
  });

  describe('fill and documents', () => {
    it('POST fill-document: 201, Location, the public base for the link, the request id', async () => {
      const response = await call('/api/vault/fill-document', {
        json: { template: { text: 'Dear {{given_name}}', format: 'text' }, fields: ['given_name'] },
        headers: { 'X-Request-Id': 'req-fill-1' },
      });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { document: { document_id: string; artifact: Artifact } };
      expect(response.headers.get('location')).toBe(`/api/vault/documents/${body.document.document_id}`);
      expect(body.document.artifact.download_url.startsWith(`${app.url}/api/artifacts/`)).toBe(true);
      expect(last()).toEqual({
        method: 'fillDocument',
        request: {
          client_id: CLIENT_ID,
          request_id: 'req-fill-1',
          base_url: app.url,
          request: { template: { text: 'Dear {{given_name}}', format: 'text' }, fields: ['given_name'] },
        },
      });
    });

    it('422 for a template without format, an empty field list or a bad filename', async () => {
      for (const body of [
        { template: { text: 'x' }, fields: ['a'] },
        { template: { text: 'x', format: 'text' }, fields: [] },
        { template: { text: 'x', format: 'text' }, fields: ['a'], filename: '../x.txt' },
      ]) {
        expect((await call('/api/vault/fill-document', { json: body })).status).toBe(422);
      }
    });

    it('GET documents and one document carry the public base; 422 for a malformed id', async () => {
      expect((await call('/api/vault/documents')).status).toBe(200);
      expect(last()).toEqual({
        method: 'listDocuments',
        request: { client_id: CLIENT_ID, base_url: app.url },
      });
      const filled = await call('/api/vault/fill-document', {
        json: { template: { text: 'Dear {{given_name}}', format: 'text' }, fields: ['given_name'] },
      });
      const id = z.object({ document: z.object({ document_id: z.string() }) }).parse(await filled.json())
        .document.document_id;
      const one = await call(`/api/vault/documents/${id}`);
      expect(one.status).toBe(200);
      expect(last()).toEqual({
        method: 'getDocument',
        request: { client_id: CLIENT_ID, base_url: app.url, document_id: id },
      });
      expect((await call('/api/vault/documents/123')).status).toBe(422);
    });
  });

  describe('scopes and methods', () => {
    it.each([
      ['GET', '/api/vault/profile', 'vault:read'],
      ['POST', '/api/vault/fields', 'vault:write'],
      ['POST', '/api/vault/fill-document', 'vault:fill'],
      ['GET', '/api/vault/documents', 'vault:fill'],
      ['GET', `/api/vault/documents/${randomUUID()}`, 'vault:fill'],
    ])('%s %s needs %s: the other vault scopes are 403', async (method, path, scope) => {
      const others = ALL_VAULT.filter((s) => s !== scope);
      const response = await app.fetch(path, {
        method,
        headers: { Authorization: `Bearer ${app.issueKey([...others])}`, 'Content-Type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await errorOf(response)).toContain(scope);
    });

    it('401 without a key, 405 with Allow for another method', async () => {
      expect((await app.fetch('/api/vault/fields')).status).toBe(401);
      const response = await call('/api/vault/fields', { method: 'PUT' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
      expect((await call('/api/vault/fill-document')).status).toBe(405);
    });
  });

  it('/openapi.json lists every vault operation with its scope and error statuses', async () => {
    const document = (await (await app.fetch('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { 'x-required-scopes': string[]; responses: object }>>;
    };
    const vaultOps = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/vault/'))
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ at: `${method} ${path}`, op })),
      );
    expect(vaultOps.map((o) => o.at).sort()).toEqual([
      'delete /api/vault/fields/{name}',
      'get /api/vault/audit',
      'get /api/vault/documents',
      'get /api/vault/documents/{document_id}',
      'get /api/vault/extractions',
      'get /api/vault/extractions/{extraction_id}',
      'get /api/vault/fields',
      'get /api/vault/profile',
      'post /api/vault/extractions',
      'post /api/vault/extractions/{extraction_id}/review',
      'post /api/vault/fields',
      'post /api/vault/fill-document',
    ]);
    for (const { at, op } of vaultOps) {
      const statuses = Object.keys(op.responses);
      expect({
        at,
        missing: ['401', '403', '422', '429', '503'].filter((s) => !statuses.includes(s)),
      }).toEqual({
        at,
        missing: [],
      });
      const scope = op['x-required-scopes'];
      const expected =
        at.includes('/documents') || at.includes('fill-document')
          ? 'vault:fill'
          : at.startsWith('get ')
            ? 'vault:read'
            : 'vault:write';
      expect({ at, scope }).toEqual({ at, scope: [expected] });
      if (at.startsWith('post '))
        expect({ at, has: ['413', '415'].every((s) => statuses.includes(s)) }).toEqual({ at, has: true });
    }
  });

  // The OpenAPI fuzz suite (openapi-fuzz.int.test.ts) against the real platform, here against the
  // vault's handlers in this process: malformed requests to every vault operation never get a 5xx,
  // always our shape.
  it('answers generated malformed requests to every vault operation in our error shape', async () => {
    const document = (await (await app.fetch('/openapi.json')).json()) as unknown;
    const vaultOps = operationsOf(document).filter((op) => op.template.startsWith('/api/vault/'));
    expect(vaultOps).toHaveLength(12);
    for (const op of vaultOps) {
      const request = fc.record({
        params: fc.tuple(...op.pathParams.map(() => fc.oneof(fc.uuid(), fc.constant('iban'), fuzzUrlText))),
        query: fc.array(fc.tuple(fc.constantFrom(...op.queryParams, 'unknown', '%00'), fuzzUrlText), {
          maxLength: 3,
        }),
        body: op.method === 'POST' ? fuzzBody(op.bodyMembers) : fc.constant(undefined),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ params, query, body }) => {
          let path = op.template;
          op.pathParams.forEach((name, i) => {
            path = path.replace(`{${name}}`, params[i] ?? '');
          });
          const search = query.map(([name, value]) => `${name}=${value}`).join('&');
          const response = await app.fetch(search ? `${path}?${search}` : path, {
            method: op.method,
            headers: {
              Authorization: `Bearer ${key}`,
              ...(body?.contentType ? { 'Content-Type': body.contentType } : {}),
            },
            ...(body === undefined ? {} : { body: body.text }),
          });
          const text = await response.text();
          const what = `${op.method} ${path} → ${response.status} ${text.slice(0, 200)}`;
          if (response.status >= 500) throw new Error(`5xx: ${what}`);
          if (response.status >= 400 && !ErrorResponse.safeParse(JSON.parse(text)).success) {
            throw new Error(`not {ok:false,error}: ${what}`);
          }
        }),
        { seed: 20_261_126, numRuns: 40, endOnFailure: true },
      );
    }
  });

  it('never writes a value it was sent into a log line', async () => {
    await call('/api/vault/fields', { json: { name: 'logged', type: 'email', value: MARKER } });
    await call('/api/vault/fields', { json: { name: 'logged', type: 'email', value: 7, note: MARKER } });
    app.platform.rpc.failNext('vault', new NotFoundError('unknown upload_id'));
    await call('/api/vault/extractions', { json: { document: { text: MARKER } } });
    await app.waitForLog((line) => line.msg === 'request completed');
    expect(app.rawLogs()).not.toContain(MARKER);
  });
});
