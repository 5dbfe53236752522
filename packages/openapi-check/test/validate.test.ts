import { validateOpenApiDocument } from '../src/index';

const minimal = { openapi: '3.1.0', info: { title: 'example', version: '1' }, paths: {} };

describe('validateOpenApiDocument', () => {
  test('accepts a valid OpenAPI 3.1 document and says which version it checked', async () => {
    await expect(validateOpenApiDocument(minimal)).resolves.toEqual({
      valid: true,
      version: '3.1',
      errors: [],
    });
  });

  test('rejects a broken document with the reasons', async () => {
    const result = await validateOpenApiDocument({ ...minimal, info: { title: 'no version' } });
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });
});
