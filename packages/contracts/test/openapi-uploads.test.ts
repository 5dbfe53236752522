import { buildOpenApiDocument } from '../src/index';
import { arr, get, type JsonObject, obj } from './support/json';

/**
 * The upload and artifact operations of the OpenAPI document (spec §4.6, §4.7, §4.9, rule 5): the
 * session, the raw-bytes PUT under its own upload-token scheme, the upload read, the manifest and
 * the binary download. The document as a whole (validation, $refs, scopes) is checked in
 * openapi.test.ts and openapi-scopes.test.ts.
 */

const doc = obj({ v: JSON.parse(JSON.stringify(buildOpenApiDocument())) }, 'v');
const operation = (p: string, method: string): JsonObject => obj(doc, 'paths', p, method);
const codes = (op: JsonObject): string[] => Object.keys(obj(op, 'responses')).sort();
const bodyRef = (op: JsonObject, status: string): unknown =>
  get(op, 'responses', status, 'content', 'application/json', 'schema', '$ref');
const params = (op: JsonObject): string[] =>
  arr(op, 'parameters').map((p) => `${String(get(p, 'in'))}:${String(get(p, 'name'))}`);

describe('upload operations (spec §4.6, §4.7)', () => {
  test('session: uploads:write, slug, UploadSessionRequest body, 201 UploadSessionResponse with Location', () => {
    const session = operation('/api/capabilities/{slug}/upload-session', 'post');
    expect(session.operationId).toBe('createUploadSession');
    expect(session.security).toEqual([{ bearerAuth: [] }]);
    expect(session['x-required-scopes']).toEqual(['uploads:write']);
    expect(params(session)).toEqual(['path:slug']);
    expect(get(session, 'requestBody', 'content', 'application/json', 'schema')).toEqual(
      get(doc, 'components', 'schemas', 'UploadSessionRequest'),
    );
    expect(get(session, 'requestBody', 'content', 'application/json', 'schema')).toMatchObject({
      required: ['input'],
      additionalProperties: false,
      properties: {
        input: { required: ['filename', 'content_type', 'size_bytes'], additionalProperties: false },
      },
    });
    expect(bodyRef(session, '201')).toBe('#/components/schemas/UploadSessionResponse');
    expect(get(session, 'responses', '201', 'headers', 'Location', 'required')).toBe(true);
    expect(codes(session)).toEqual(
      ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503'].sort(),
    );
  });

  test('PUT: the upload-token scheme (no API key, no scopes), a raw-bytes body, 200 UploadResponse', () => {
    const put = operation('/api/capability-uploads/{upload_id}', 'put');
    expect(put.operationId).toBe('putUploadBytes');
    expect(put.security).toEqual([{ uploadToken: [] }]);
    expect(put['x-required-scopes']).toEqual([]);
    expect(String(put.description)).toContain('not an API key');
    expect(get(doc, 'components', 'securitySchemes', 'uploadToken')).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(params(put)).toEqual(['path:upload_id']);
    // Raw bytes in the declared type: no JSON schema, octet-stream and any other media type.
    expect(get(put, 'requestBody', 'required')).toBe(true);
    expect(get(put, 'requestBody', 'content')).toEqual({ 'application/octet-stream': {}, '*/*': {} });
    expect(String(get(put, 'requestBody', 'description'))).toContain('Content-Type');
    expect(bodyRef(put, '200')).toBe('#/components/schemas/UploadResponse');
    expect(codes(put)).toEqual(['200', '401', '408', '409', '413', '415', '422', '429', '500', '503']);
    expect(String(get(put, 'responses', '401', 'description'))).toContain(
      'API key instead of the upload token',
    );
    expect(String(get(put, 'responses', '415', 'description'))).toContain('declared');
    // The PUT deadline and the idle cut (issue 13, finding 6) answer 408 in our error shape.
    expect(String(get(put, 'responses', '408', 'description'))).toMatch(/no progress.*same token/s);
    expect(get(put, 'responses', '408', 'content', 'application/json', 'schema')).toEqual({
      $ref: '#/components/schemas/ErrorResponse',
    });
  });

  test('GET upload: uploads:write, UploadResponse, 404 for uploads the caller cannot see', () => {
    const read = operation('/api/capability-uploads/{upload_id}', 'get');
    expect(read.operationId).toBe('getUpload');
    expect(read['x-required-scopes']).toEqual(['uploads:write']);
    expect(bodyRef(read, '200')).toBe('#/components/schemas/UploadResponse');
    expect(codes(read)).toEqual(['200', '401', '403', '404', '422', '429', '500', '503']);
  });

  test('the upload record is a component without the token', () => {
    const record = obj(doc, 'components', 'schemas', 'UploadRecord');
    expect(Object.keys(obj(record, 'properties'))).not.toContain('upload_token');
    expect(get(record, 'properties', 'status', '$ref')).toBe('#/components/schemas/UploadStatus');
    expect(get(doc, 'components', 'schemas', 'UploadSessionResponse', 'properties', 'upload', '$ref')).toBe(
      '#/components/schemas/UploadRecord',
    );
  });
});

describe('artifact operations (spec §4.9, rule 5)', () => {
  test('manifest: artifacts:read, run_id, ArtifactManifestResponse of Artifact items', () => {
    const list = operation('/api/capability-runs/{run_id}/artifacts', 'get');
    expect(list.operationId).toBe('listRunArtifacts');
    expect(list['x-required-scopes']).toEqual(['artifacts:read']);
    expect(params(list)).toEqual(['path:run_id']);
    expect(bodyRef(list, '200')).toBe('#/components/schemas/ArtifactManifestResponse');
    expect(
      get(
        doc,
        'components',
        'schemas',
        'ArtifactManifestResponse',
        'properties',
        'artifacts',
        'items',
        '$ref',
      ),
    ).toBe('#/components/schemas/Artifact');
    expect(codes(list)).toEqual(['200', '401', '403', '404', '422', '429', '500', '503']);
  });

  test('download: artifacts:read, expires and signature in the query, binary 200 with its headers', () => {
    const download = operation('/api/artifacts/{artifact_id}/download', 'get');
    expect(download.operationId).toBe('downloadArtifact');
    expect(download.security).toEqual([{ bearerAuth: [] }]);
    expect(download['x-required-scopes']).toEqual(['artifacts:read']);
    expect(params(download).sort()).toEqual(['path:artifact_id', 'query:expires', 'query:signature']);
    const signature = arr(download, 'parameters').find((p) => get(p, 'name') === 'signature');
    expect(get(signature, 'required')).toBe(true);
    expect(get(signature, 'schema', 'pattern')).toBe('^[A-Za-z0-9_-]{43}$');
    expect(get(download, 'responses', '200', 'content')).toEqual({ '*/*': {} });
    expect(Object.keys(obj(download, 'responses', '200', 'headers')).sort()).toEqual(
      [
        'Cache-Control',
        'Content-Disposition',
        'Content-Length',
        'ETag',
        'X-Checksum-Sha256',
        'X-Content-Type-Options',
        'RateLimit',
        'RateLimit-Policy',
      ].sort(),
    );
    expect(codes(download)).toEqual(['200', '401', '403', '404', '422', '429', '500', '503']);
    expect(String(get(download, 'responses', '403', 'description'))).toContain('expired');
  });

  test('the scope table names the upload token row and the two new scopes', () => {
    const description = String(get(doc, 'info', 'description'));
    expect(description).toContain(
      '| upload token (no API key) | `PUT /api/capability-uploads/{upload_id}` |',
    );
    expect(description).toContain(
      '| `artifacts:read` | `GET /api/capability-runs/{run_id}/artifacts`, `GET /api/artifacts/{artifact_id}/download` |',
    );
    expect(get(doc, 'x-scopes', 'uploads:write')).toEqual([
      'POST /api/capabilities/{slug}/upload-session',
      'GET /api/capability-uploads/{upload_id}',
    ]);
  });
});
