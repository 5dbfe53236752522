import { validateOpenApiDocument } from '@svc/openapi-check';
import { z } from 'zod';
import { API_VERSION, type ApiOperation, apiOperations, buildOpenApiDocument } from '../src/index';
import { arr, get, type JsonObject, obj } from './support/json';

/** The document as plain JSON, exactly what /openapi.json serves. */
const asJson = (value: unknown): JsonObject => obj({ v: JSON.parse(JSON.stringify(value)) }, 'v');
const doc = asJson(buildOpenApiDocument());
const operation = (p: string, method = 'get'): JsonObject => obj(doc, 'paths', p, method);
const responseCodes = (p: string, method = 'get'): string[] =>
  Object.keys(obj(operation(p, method), 'responses'));

describe('buildOpenApiDocument', () => {
  test('passes the OpenAPI 3.1 schema validator', async () => {
    const result = await validateOpenApiDocument(doc);
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  test('the validator does reject a broken document (the check can fail)', async () => {
    const broken = asJson(doc);
    delete obj(broken, 'info').version;
    obj(broken, 'paths', '/api/capabilities', 'get', 'responses', '200').content = 'nope';
    expect((await validateOpenApiDocument(broken)).valid).toBe(false);
  });

  test('version label, bearer scheme and global security', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(get(doc, 'info', 'version')).toBe(API_VERSION);
    expect(get(doc, 'components', 'securitySchemes', 'bearerAuth')).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  test('has exactly the operations built so far', () => {
    const listed = Object.entries(obj(doc, 'paths')).flatMap(([p, item]) =>
      Object.keys(obj({ item }, 'item')).map((m) => `${m} ${p}`),
    );
    expect(listed.sort()).toEqual(
      [
        'get /api/capabilities',
        'get /api/capabilities/{slug}',
        'post /api/capabilities/{slug}/quote',
        'post /api/capabilities/{slug}/run',
        'post /api/capabilities/crt/run',
        'get /api/capability-runs',
        'get /api/capability-runs/{run_id}',
        'post /api/capability-runs/{run_id}/cancel',
        'get /api/capability-runs/{run_id}/receipt',
        'post /api/capabilities/{slug}/upload-session',
        'put /api/capability-uploads/{upload_id}',
        'get /api/capability-uploads/{upload_id}',
        'get /api/capability-runs/{run_id}/artifacts',
        'get /api/artifacts/{artifact_id}/download',
        'get /api/account/whoami',
        'get /api/account/balance',
        'get /api/account/usage-statement',
        'get /api/account/spend-diagnostics',
        'get /api/vault/profile',
        'get /api/vault/fields',
        'post /api/vault/fields',
        'delete /api/vault/fields/{name}',
        'get /api/vault/extractions',
        'post /api/vault/extractions',
        'get /api/vault/extractions/{extraction_id}',
        'post /api/vault/extractions/{extraction_id}/review',
        'post /api/vault/fill-document',
        'get /api/vault/documents',
        'get /api/vault/documents/{document_id}',
        'get /api/vault/audit',
        'post /mcp',
        'get /healthz',
        'get /readyz',
        'get /openapi.json',
        'get /contract/manifest.json',
        'get /contract/changelog.json',
      ].sort(),
    );
    expect(new Set(apiOperations.map((op) => op.operationId)).size).toBe(apiOperations.length);
  });

  test('list, describe, health, readiness and the document itself carry no security (spec §4)', () => {
    for (const p of [
      '/api/capabilities',
      '/api/capabilities/{slug}',
      '/healthz',
      '/readyz',
      '/openapi.json',
      '/contract/manifest.json',
      '/contract/changelog.json',
    ]) {
      expect({ p, security: operation(p).security }).toEqual({ p, security: [] });
    }
  });

  test('account operations need a key; balance names billing:read', () => {
    expect(operation('/api/account/whoami').security).toEqual([{ bearerAuth: [] }]);
    expect(operation('/api/account/whoami')['x-required-scopes']).toEqual([]);
    const balance = operation('/api/account/balance');
    expect(balance.security).toEqual([{ bearerAuth: [] }]);
    expect(balance['x-required-scopes']).toEqual(['billing:read']);
    expect(balance.description).toEqual(expect.stringContaining('billing:read'));
    expect(responseCodes('/api/account/balance')).toEqual(
      expect.arrayContaining(['200', '401', '403', '503']),
    );
    expect(responseCodes('/api/account/whoami')).toEqual(expect.arrayContaining(['200', '401']));
  });

  test('list takes q, category and limit from the query string', () => {
    const params = arr(operation('/api/capabilities'), 'parameters');
    expect(params.map((p) => `${get(p, 'in')}:${get(p, 'name')}`).sort()).toEqual([
      'query:category',
      'query:limit',
      'query:q',
    ]);
    const limit = params.find((p) => get(p, 'name') === 'limit');
    expect(get(limit, 'schema')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(get(limit, 'required')).toBeFalsy();
    expect(responseCodes('/api/capabilities')).toEqual(expect.arrayContaining(['200', '422', '503']));
  });

  test('describe takes a required slug path parameter and declares 404', () => {
    expect(arr(operation('/api/capabilities/{slug}'), 'parameters')).toEqual([
      expect.objectContaining({ in: 'path', name: 'slug', required: true }),
    ]);
    expect(responseCodes('/api/capabilities/{slug}')).toEqual(expect.arrayContaining(['200', '404']));
  });

  test('crt run (spec §4.5): capabilities:run, JSON body CrtRunRequest, optional Idempotency-Key', () => {
    const run = operation('/api/capabilities/crt/run', 'post');
    expect(run.operationId).toBe('runCrt');
    expect(run.security).toEqual([{ bearerAuth: [] }]);
    expect(run['x-required-scopes']).toEqual(['capabilities:run']);
    expect(run.description).toEqual(expect.stringContaining('capabilities:run'));
    expect(get(run, 'requestBody', 'required')).toBe(true);
    // The body is rendered inline, identical to the CrtRunRequest component (document.ts registers
    // request-side components as `.meta({ unusedIO })` clones, so operations do not $ref them).
    expect(get(run, 'requestBody', 'content', 'application/json', 'schema')).toEqual(
      get(doc, 'components', 'schemas', 'CrtRunRequest'),
    );
    expect(get(run, 'requestBody', 'content', 'application/json', 'schema')).toMatchObject({
      type: 'object',
      required: ['input'],
      additionalProperties: false,
      properties: { input: { required: ['apex'], additionalProperties: false } },
    });
    const params = arr(run, 'parameters');
    expect(params).toHaveLength(1);
    expect(params[0]).toMatchObject({
      in: 'header',
      name: 'idempotency-key',
      schema: { type: 'string', minLength: 8, maxLength: 190, pattern: '^[A-Za-z0-9._:-]+$' },
    });
    expect(get(params[0], 'required')).toBeFalsy();
  });

  test('crt run answers: 200 either response shape, 202 the run status, 502 when providers fail', () => {
    const run = operation('/api/capabilities/crt/run', 'post');
    expect(responseCodes('/api/capabilities/crt/run', 'post').sort()).toEqual(
      [
        '200',
        '202',
        '400',
        '401',
        '403',
        '404',
        '409',
        '413',
        '415',
        '422',
        '429',
        '500',
        '502',
        '503',
      ].sort(),
    );
    expect(get(run, 'responses', '200', 'content', 'application/json', 'schema', 'anyOf')).toEqual([
      { $ref: '#/components/schemas/CrtCompletedRunResponse' },
      { $ref: '#/components/schemas/CrtReplayRunResponse' },
    ]);
    expect(get(run, 'responses', '202', 'content', 'application/json', 'schema', '$ref')).toBe(
      '#/components/schemas/RunStatusResponse',
    );
    // The headers a client may rely on: the replay marker and where to poll a run still in progress.
    expect(get(run, 'responses', '200', 'headers', 'Idempotent-Replayed', 'schema')).toMatchObject({
      type: 'string',
      const: 'true',
    });
    expect(get(run, 'responses', '200', 'headers', 'Idempotent-Replayed', 'required')).toBeUndefined();
    expect(get(run, 'responses', '202', 'headers', 'Location', 'required')).toBe(true);
    expect(get(run, 'responses', '502', 'description')).toEqual(expect.stringContaining('provider'));
    expect(get(run, 'responses', '415', 'description')).toEqual(expect.stringContaining('application/json'));
  });

  test('run status (spec §4.8): capabilities:run, a UUID run_id, 404 for runs the caller cannot see', () => {
    const status = operation('/api/capability-runs/{run_id}');
    expect(status.operationId).toBe('getRun');
    expect(status['x-required-scopes']).toEqual(['capabilities:run']);
    expect(status.security).toEqual([{ bearerAuth: [] }]);
    expect(get(status, 'requestBody')).toBeUndefined();
    expect(arr(status, 'parameters')).toEqual([
      expect.objectContaining({
        in: 'path',
        name: 'run_id',
        required: true,
        schema: expect.objectContaining({ type: 'string', format: 'uuid' }),
      }),
      // Issue 25: `Prefer: wait=N`, optional, any text (what is not understood is ignored).
      expect.objectContaining({
        in: 'header',
        name: 'prefer',
        schema: expect.objectContaining({ type: 'string' }),
      }),
    ]);
    expect(get(status, 'responses', '200', 'headers', 'Preference-Applied', 'schema')).toMatchObject({
      type: 'string',
      pattern: '^wait=\\d+$',
    });
    expect(responseCodes('/api/capability-runs/{run_id}').sort()).toEqual(
      ['200', '401', '403', '404', '422', '429', '500', '503'].sort(),
    );
    expect(get(status, 'responses', '200', 'content', 'application/json', 'schema', '$ref')).toBe(
      '#/components/schemas/RunStatusResponse',
    );
  });

  test('every error response is an ErrorResponse, except the readiness report', () => {
    let checked = 0;
    for (const [p, item] of Object.entries(obj(doc, 'paths'))) {
      for (const [method, op] of Object.entries(obj({ item }, 'item'))) {
        for (const [status, response] of Object.entries(obj(op, 'responses'))) {
          if (Number(status) < 400) continue;
          checked += 1;
          const ref = get(response, 'content', 'application/json', 'schema', '$ref');
          const expected =
            p === '/readyz' ? '#/components/schemas/ReadinessResponse' : '#/components/schemas/ErrorResponse';
          expect({ at: `${method} ${p} ${status}`, ref }).toEqual({
            at: `${method} ${p} ${status}`,
            ref: expected,
          });
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  test('registers the crt types and renders the request ones on the request side', () => {
    const schemas = obj(doc, 'components', 'schemas');
    for (const name of [
      'CrtInput',
      'CrtRunRequest',
      'CrtObservation',
      'CrtResult',
      'CrtCompletedRunResponse',
      'CrtReplayRunResponse',
      'Quote',
      'RunRecord',
      'RunStatusResponse',
      'ErrorResponse',
    ]) {
      expect(schemas).toHaveProperty(name);
    }
    expect(get(schemas, 'CrtRunRequest', 'required')).toEqual(['input']);
    expect(get(schemas, 'CrtRunRequest', 'additionalProperties')).toBe(false);
    expect(get(schemas, 'CrtInput', 'required')).toEqual(['apex']);
    expect(get(schemas, 'CrtResult', 'additionalProperties')).toBe(false);
    expect(arr(schemas, 'CrtResult', 'required')).toHaveLength(10);
    expect(arr(schemas, 'CrtReplayRunResponse', 'required').sort()).toEqual([
      'idempotent_replay',
      'ok',
      'run_id',
      'status',
    ]);
    // docs/decisions.md C4: both run responses are closed, with the real Quote and RunRecord inside.
    expect(get(schemas, 'CrtReplayRunResponse', 'additionalProperties')).toBe(false);
    expect(get(schemas, 'CrtReplayRunResponse', 'properties', 'quote', 'anyOf')).toEqual([
      { $ref: '#/components/schemas/Quote' },
      { type: 'null' },
    ]);
    expect(get(schemas, 'CrtReplayRunResponse', 'properties', 'run', 'anyOf')).toEqual([
      { $ref: '#/components/schemas/RunRecord' },
      { type: 'null' },
    ]);
    expect(get(schemas, 'CrtCompletedRunResponse', 'additionalProperties')).toBe(false);
    expect(arr(schemas, 'CrtCompletedRunResponse', 'required').sort()).toEqual([
      'ok',
      'quote',
      'result',
      'run_id',
      'status',
    ]);
    expect(get(schemas, 'CrtCompletedRunResponse', 'properties', 'quote', '$ref')).toBe(
      '#/components/schemas/Quote',
    );
    expect(get(schemas, 'CrtCompletedRunResponse', 'properties', 'result', '$ref')).toBe(
      '#/components/schemas/CrtResult',
    );
    expect(get(schemas, 'Quote', 'additionalProperties')).toBe(false);
    expect(arr(schemas, 'Quote', 'required')).toHaveLength(7);
    expect(get(schemas, 'RunRecord', 'additionalProperties')).toBe(false);
    expect(arr(schemas, 'RunRecord', 'required').sort()).toEqual([
      'attempts',
      'cancel_requested_at',
      'client_type',
      'created_at',
      'finished_at',
      'price_usd',
      'quote_id',
      'run_id',
      'runtime',
      'slug',
      'started_at',
      'status',
      'status_message',
      'updated_at',
      'waiting_for_runtime',
    ]);
    expect(get(schemas, 'RunStatusResponse', 'additionalProperties')).toBe(false);
    expect(arr(schemas, 'RunStatusResponse', 'required')).toEqual(
      expect.arrayContaining(['ok', 'run_id', 'status']),
    );
    // The apex is published as a host name; the Public Suffix List rule is enforced server-side.
    expect(get(schemas, 'CrtInput', 'properties', 'apex')).toMatchObject({
      type: 'string',
      format: 'hostname',
      maxLength: 253,
    });
    expect(get(schemas, 'ErrorResponse')).toMatchObject({
      required: ['ok', 'error'],
      additionalProperties: false,
    });
  });

  test('no component is duplicated as a request and a response variant', () => {
    expect(Object.keys(obj(doc, 'components', 'schemas')).filter((name) => name.endsWith('Output'))).toEqual(
      [],
    );
  });

  test('every $ref resolves inside the document', () => {
    const refs = new Set<string>();
    JSON.stringify(doc, (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') refs.add(value);
      return value;
    });
    expect(refs.size).toBeGreaterThan(5);
    for (const ref of refs) {
      const target = get(doc, ...ref.replace(/^#\//, '').split('/'));
      expect({ ref, found: target !== undefined }).toEqual({ ref, found: true });
    }
  });

  test('an error note must name a declared error status', () => {
    const first = apiOperations[0];
    if (!first) throw new Error('no operations');
    const noted: ApiOperation = {
      ...first,
      operationId: 'noted',
      path: '/api/noted',
      errorNotes: { 402: 'x' },
    };
    expect(() => buildOpenApiDocument([noted])).toThrow(/errorNotes names 402/);
  });

  test('an operation is added in one place and a duplicate is refused', async () => {
    const extra: ApiOperation = {
      method: 'post',
      path: '/api/example',
      operationId: 'example',
      rateLimit: 'runs',
      summary: 'Example',
      tags: ['example'],
      auth: { kind: 'key', scopes: ['capabilities:run'] },
      body: { schema: z.object({ a: z.string() }).strict() },
      success: { status: 200, description: 'ok', schema: z.object({ ok: z.literal(true) }) },
      errors: [401, 403, 422],
    };
    const extended = asJson(buildOpenApiDocument([...apiOperations, extra]));
    expect(get(extended, 'paths', '/api/example', 'post', 'x-required-scopes')).toEqual(['capabilities:run']);
    expect(get(extended, 'paths', '/api/example', 'post', 'requestBody', 'required')).toBe(true);
    // Rate limits (issue 13): the declared budget, and the 429 every limited operation may answer.
    expect(get(extended, 'paths', '/api/example', 'post', 'x-rate-limit-budget')).toBe('runs');
    expect(
      get(extended, 'paths', '/api/example', 'post', 'responses', '429', 'headers', 'Retry-After'),
    ).toBeDefined();
    expect(() => buildOpenApiDocument([...apiOperations, { ...extra, rateLimit: undefined }])).toThrow(
      'POST /api/example declares no rate-limit budget',
    );
    expect((await validateOpenApiDocument(extended)).valid).toBe(true);
    const first = apiOperations[0];
    if (!first) throw new Error('no operations');
    expect(() => buildOpenApiDocument([...apiOperations, first])).toThrow(/duplicate operation/);
  });
});
