import { z } from 'zod';
import { type ApiOperation, apiOperations, buildOpenApiDocument, SCOPES, Scope } from '../src/index';
import { arr, get, type JsonObject, obj } from './support/json';

/**
 * Scopes in the OpenAPI document (spec §5.3, docs/decisions.md S2): every operation states the
 * scopes it requires (`x-required-scopes`, its security and its description agree), and the
 * document-level scope table (`x-scopes`, `info.description`) is generated from the operations.
 * The gateway enforces the same declarations (services/gateway/test/routes.test.ts).
 */

const asJson = (value: unknown): JsonObject => obj({ v: JSON.parse(JSON.stringify(value)) }, 'v');
const doc = asJson(buildOpenApiDocument());
const operation = (p: string, method = 'get'): JsonObject => obj(doc, 'paths', p, method);
const responseCodes = (p: string, method = 'get'): string[] =>
  Object.keys(obj(operation(p, method), 'responses'));

describe('OpenAPI scopes', () => {
  test('every operation documents its scopes: x-required-scopes, security and description agree', () => {
    let checked = 0;
    for (const op of apiOperations) {
      const rendered = operation(op.path, op.method);
      const at = `${op.method} ${op.path}`;
      const required = arr(rendered, 'x-required-scopes');
      const declared = op.auth.kind === 'key' ? [...op.auth.scopes] : [];
      expect({ at, required }).toEqual({ at, required: declared });
      for (const scope of required) {
        expect({ at, valid: Scope.safeParse(scope).success }).toEqual({ at, valid: true });
        expect({ at, described: String(rendered.description).includes(`\`${String(scope)}\``) }).toEqual({
          at,
          described: true,
        });
      }
      // The upload PUT takes the session's upload token, never an API key (spec §4.7, §5.4).
      const security =
        op.auth.kind === 'public'
          ? []
          : op.auth.kind === 'upload-token'
            ? [{ uploadToken: [] }]
            : [{ bearerAuth: [] }];
      expect({ at, security: rendered.security }).toEqual({ at, security });
      // A key-protected operation says 401; one that names a scope also says 403.
      if (op.auth.kind === 'key')
        expect({ at, codes: responseCodes(op.path, op.method) }).toEqual({
          at,
          codes: expect.arrayContaining(op.auth.scopes.length > 0 ? ['401', '403'] : ['401']),
        });
      checked += 1;
    }
    expect(checked).toBe(
      Object.values(obj(doc, 'paths')).flatMap((item) => Object.keys(obj({ item }, 'item'))).length,
    );
  });

  test('the scope table (x-scopes and info.description) is generated from the operations', () => {
    const table = obj(doc, 'x-scopes');
    expect(Object.keys(table)).toEqual([...SCOPES]);
    for (const scope of SCOPES) {
      const expected = apiOperations
        .filter((op) => op.auth.kind === 'key' && op.auth.scopes.includes(scope))
        .map((op) => `${op.method.toUpperCase()} ${op.path}`);
      expect({ scope, operations: table[scope] }).toEqual({ scope, operations: expected });
    }
    // docs/decisions.md S2 as designed for the quote-first issue.
    expect(table['capabilities:quote']).toEqual(['POST /api/capabilities/{slug}/quote']);
    expect(table['capabilities:read']).toEqual([]);
    expect(arr(table, 'billing:read')).toEqual(
      expect.arrayContaining([
        'GET /api/capability-runs/{run_id}/receipt',
        'GET /api/account/usage-statement',
      ]),
    );
    const description = String(get(doc, 'info', 'description'));
    expect(description).toContain('| `capabilities:read` | nothing on REST yet |');
    expect(description).toContain('| `capabilities:quote` | `POST /api/capabilities/{slug}/quote` |');
    expect(description).toContain('| any valid key | `GET /api/account/whoami`, `POST /mcp` |');
    // Another operation moves the table with it: nothing is restated by hand.
    const upload: ApiOperation = {
      method: 'post',
      path: '/api/example-upload',
      operationId: 'exampleUpload',
      rateLimit: 'transfers',
      summary: 'Example',
      tags: ['example'],
      auth: { kind: 'key', scopes: ['uploads:write', 'billing:read'] },
      success: { status: 200, description: 'ok', schema: z.object({ ok: z.literal(true) }) },
      errors: [401, 403],
    };
    const extended = asJson(buildOpenApiDocument([...apiOperations, upload]));
    expect(get(extended, 'x-scopes', 'uploads:write')).toEqual([
      'POST /api/capabilities/{slug}/upload-session',
      'GET /api/capability-uploads/{upload_id}',
      'POST /api/example-upload',
    ]);
    expect(arr(extended, 'x-scopes', 'billing:read')).toContain('POST /api/example-upload');
    expect(String(get(extended, 'info', 'description'))).toContain(
      '| `uploads:write` | `POST /api/capabilities/{slug}/upload-session`, `GET /api/capability-uploads/{upload_id}`, `POST /api/example-upload` |',
    );
  });
});
