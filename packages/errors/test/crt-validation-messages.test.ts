import { CrtRunHeaders, CrtRunRequest, RunIdParams } from '@svc/contracts';
import type { z } from 'zod';
import { formatZodError, toErrorResponse, ValidationError } from '../src/index';

/**
 * The 422 lines a client reads for every invalid crt request of the issue (spec §7.2): the real
 * contract schemas, formatted the way the gateway does, then mapped to the wire.
 */
function wireMessage(schema: z.ZodType, value: unknown, prefix?: string): { status: number; error: string } {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
  const { status, body } = toErrorResponse(new ValidationError(formatZodError(parsed.error, prefix)));
  return { status, error: body.error };
}

const apex = (value: unknown) => ({ input: { apex: value } });
const withInput = (extra: Record<string, unknown>) => ({ input: { apex: 'example.com', ...extra } });

describe('crt run: the 422 message for each invalid request of the issue', () => {
  test.each([
    [
      apex('www.example.com'),
      'input.apex: www.example.com is a subdomain; give its registrable domain example.com',
    ],
    [
      apex('co.uk'),
      'input.apex: co.uk is a public suffix (ICANN section of the Public Suffix List); give a registrable domain under it, e.g. example.co.uk',
    ],
    [
      apex('github.io'),
      'input.apex: github.io is a public suffix (PRIVATE section of the Public Suffix List); give a registrable domain under it, e.g. example.github.io',
    ],
    [apex('192.0.2.1'), 'input.apex: must be a domain name, not an IP address'],
    [apex('[2001:db8::1]'), 'input.apex: must be a domain name, not an IP address'],
    [apex('example..com'), 'input.apex: must not contain an empty label (leading or doubled dot)'],
    [apex(`${'a'.repeat(64)}.com`), `input.apex: label "${'a'.repeat(20)}…" is longer than 63 characters`],
    [
      apex('bücher.de'),
      'input.apex: must be ASCII: write an internationalised domain in its xn-- (punycode) form',
    ],
    [
      apex('exa_mple.com'),
      'input.apex: label "exa_mple" is not an RFC 1123 hostname label (letters, digits and inner hyphens only)',
    ],
    [apex(''), 'input.apex: must not be empty'],
    [apex(42), 'input.apex: must be a string, got number'],
    [{}, 'input: required'],
    [{ input: null }, 'input: must be an object, got null'],
    [{ input: {} }, 'input.apex: required'],
    [withInput({ foo: 1 }), 'input: unknown property "foo"'],
    [{ ...apex('example.com'), foo: 1 }, 'unknown property "foo"'],
    [withInput({ limit: 0 }), 'input.limit: must be at least 1'],
    [withInput({ limit: 1001 }), 'input.limit: must be at most 1000'],
    [withInput({ limit: 1.5 }), 'input.limit: must be an integer, got number'],
    [withInput({ limit: '10' }), 'input.limit: must be a number, got string'],
    [withInput({ include_first_seen: 'true' }), 'input.include_first_seen: must be a boolean, got string'],
    [{ ...apex('example.com'), client_type: 'a' }, 'client_type: must be at least 2 characters long'],
    [
      { ...apex('example.com'), client_type: 'x'.repeat(25) },
      'client_type: must be at most 24 characters long',
    ],
    [{ ...apex('example.com'), client_type: 'bad type' }, 'client_type: must match ^[A-Za-z0-9_-]+$'],
    [{ ...apex('example.com'), quote_id: 'q-1' }, 'quote_id: must be a UUID'],
    [null, 'must be an object, got null'],
  ])('%j', (body, message) => {
    expect(wireMessage(CrtRunRequest, body)).toEqual({ status: 422, error: message });
  });

  test('several problems are reported together on one line', () => {
    const { error } = wireMessage(CrtRunRequest, {
      input: { apex: 'WWW.Example.com', limit: 5000, extra: true },
      client_type: 'x',
    });
    // Not split on "; ": the subdomain message has one of its own (design: "…is a subdomain; give…").
    for (const part of [
      'input.apex: www.example.com is a subdomain; give its registrable domain example.com',
      'input.limit: must be at most 1000',
      'input: unknown property "extra"',
      'client_type: must be at least 2 characters long',
    ]) {
      expect(error).toContain(part);
    }
    expect(error).not.toMatch(/[\r\n]/);
  });

  test('a newline in the apex does not break the one-line message', () => {
    expect(wireMessage(CrtRunRequest, apex('example.com\nX-Injected: 1')).error).toBe(
      'input.apex: label "com\\nx-injected: 1" is not an RFC 1123 hostname label (letters, digits and inner hyphens only)',
    );
  });

  test('a malformed Idempotency-Key and a malformed run id', () => {
    expect(wireMessage(CrtRunHeaders, { 'idempotency-key': 'short' }, 'headers')).toEqual({
      status: 422,
      error: 'headers.idempotency-key: must be at least 8 characters long',
    });
    expect(wireMessage(CrtRunHeaders, { 'idempotency-key': 'has space 123' }, 'headers').error).toBe(
      'headers.idempotency-key: must match ^[A-Za-z0-9._:-]+$',
    );
    expect(wireMessage(RunIdParams, { run_id: 'abc' })).toEqual({
      status: 422,
      error: 'run_id: must be a UUID',
    });
  });
});
