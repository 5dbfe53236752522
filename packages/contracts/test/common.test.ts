import {
  API_VERSION,
  ClientType,
  ErrorResponse,
  Hostname,
  IdempotencyKey,
  SCOPES,
  Scope,
  Slug,
  UsdAmount,
  Uuid,
} from '../src/index';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('common shapes', () => {
  test('API_VERSION is the spec label', () => {
    expect(API_VERSION).toBe('2026-08-restoration-local');
  });

  test('ErrorResponse is {ok:false, error} and nothing else (spec §2.6)', () => {
    expect(ErrorResponse.parse({ ok: false, error: 'bad' })).toEqual({ ok: false, error: 'bad' });
    expect(ok(ErrorResponse, { ok: true, error: 'bad' })).toBe(false);
    expect(ok(ErrorResponse, { ok: false })).toBe(false);
    expect(ok(ErrorResponse, { ok: false, error: 'bad', code: 'x' })).toBe(false);
  });

  test('Uuid', () => {
    expect(ok(Uuid, '6ba7b810-9dad-41d1-80b4-00c04fd430c8')).toBe(true);
    expect(ok(Uuid, '6ba7b810-9dad-41d1-80b4-00c04fd430c')).toBe(false);
    expect(ok(Uuid, 'not-a-uuid')).toBe(false);
  });

  test('Hostname: RFC 1123 shape only', () => {
    for (const good of [
      'example.com',
      'a.b.c.example.co.uk',
      'xn--bcher-kva.example',
      'EXAMPLE.com',
      'localhost',
      '1.2',
    ]) {
      expect(ok(Hostname, good)).toBe(true);
    }
    const longLabel = `${'a'.repeat(64)}.com`;
    const maxLength = `${'abcdefghi.'.repeat(25)}com`; // 253 characters: the RFC 1123 maximum
    expect(ok(Hostname, maxLength)).toBe(true);
    expect(ok(Hostname, `a${maxLength}`)).toBe(false);
    for (const bad of [
      '',
      'example.com.',
      '-a.com',
      'a-.com',
      'exa_mple.com',
      '*.example.com',
      'a..b',
      longLabel,
      'ex ample.com',
    ]) {
      expect({ bad, ok: ok(Hostname, bad) }).toEqual({ bad, ok: false });
    }
    expect(ok(Hostname, `${'a'.repeat(63)}.com`)).toBe(true);
  });

  test('Slug', () => {
    for (const good of ['crt', 'pdf-to-text', 'a', 'a1', 'x'.repeat(64)]) expect(ok(Slug, good)).toBe(true);
    for (const bad of ['', 'Crt', '-crt', 'crt-', 'c_rt', 'x'.repeat(65), 'a b'])
      expect(ok(Slug, bad)).toBe(false);
  });

  test('ClientType: 2..24 of [A-Za-z0-9_-]', () => {
    for (const good of ['api', 'mcp', 'ab', 'A_b-9', 'x'.repeat(24)]) expect(ok(ClientType, good)).toBe(true);
    for (const bad of ['a', 'x'.repeat(25), 'a b', 'a.b', 'é1', '']) expect(ok(ClientType, bad)).toBe(false);
  });

  test('IdempotencyKey: 8..190 of [A-Za-z0-9._:-]', () => {
    for (const good of ['abcdefgh', 'run:2026-08-01.a_b-c', 'k'.repeat(190)])
      expect(ok(IdempotencyKey, good)).toBe(true);
    for (const bad of ['abcdefg', 'k'.repeat(191), 'abcdefgh/', 'abc defgh', 'abcdefgh\n']) {
      expect(ok(IdempotencyKey, bad)).toBe(false);
    }
  });

  test('Scope: exactly the nine scopes of spec §5.3', () => {
    expect([...SCOPES].sort()).toEqual(
      [
        'artifacts:read',
        'billing:read',
        'capabilities:quote',
        'capabilities:read',
        'capabilities:run',
        'uploads:write',
        'vault:fill',
        'vault:read',
        'vault:write',
      ].sort(),
    );
    expect(ok(Scope, 'vault:fill')).toBe(true);
    expect(ok(Scope, 'admin')).toBe(false);
    expect(ok(Scope, 'Billing:read')).toBe(false);
  });

  test('UsdAmount: non-negative decimal string, at most 6 decimals', () => {
    for (const good of ['0', '0.004', '12.50', '1', '0.000001', '999999999999.999999'])
      expect(ok(UsdAmount, good)).toBe(true);
    for (const bad of ['-1', '1.', '.5', '0.0000001', '01', '1e3', '1,00', ' 1', '1000000000000', '', 12.5]) {
      expect(ok(UsdAmount, bad)).toBe(false);
    }
  });
});
