import { z } from 'zod';
import { formatIssuePath, formatZodError } from '../src/index';

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a validation failure');
  return result.error;
}

const Envelope = z
  .object({
    input: z
      .object({
        apex: z.string().refine((apex) => apex.split('.').length === 2, 'must be a registrable domain'),
        include_first_seen: z.boolean().default(false),
        limit: z.number().int().min(1).max(1000).default(100),
      })
      .strict(),
    quote_id: z.uuid().optional(),
    client_type: z
      .string()
      .min(2)
      .max(24)
      .regex(/^[A-Za-z0-9_-]+$/)
      .default('api'),
  })
  .strict();

describe('formatZodError', () => {
  test('authored messages are kept, with the dotted path', () => {
    expect(formatZodError(errorOf(Envelope, { input: { apex: 'www.example.com' } }))).toBe(
      'input.apex: must be a registrable domain',
    );
  });

  test('missing fields read "required"', () => {
    expect(formatZodError(errorOf(Envelope, {}))).toBe('input: required');
    expect(formatZodError(errorOf(Envelope, { input: {} }))).toBe('input.apex: required');
  });

  test('unknown keys, one per key, quoted', () => {
    expect(formatZodError(errorOf(Envelope, { input: { apex: 'example.com', foo: 1 } }))).toBe(
      'input: unknown property "foo"',
    );
    expect(formatZodError(errorOf(Envelope, { input: { apex: 'example.com' }, a: 1, b: 2 }))).toBe(
      'unknown property "a"; unknown property "b"',
    );
  });

  test('several problems on one line, joined by "; "', () => {
    const message = formatZodError(errorOf(Envelope, { input: { apex: 1, limit: 5000 }, client_type: 'x' }));
    expect(message).toBe(
      'input.apex: must be a string, got number; input.limit: must be at most 1000; client_type: must be at least 2 characters long',
    );
    expect(message).not.toContain('\n');
  });

  test('types, integers, bounds, formats, enums and literals', () => {
    const S = z.object({
      n: z.number().int().min(1),
      p: z.number().gt(0),
      s: z.string().max(3),
      r: z.string().regex(/^[a-z]+$/),
      u: z.uuid(),
      d: z.iso.datetime(),
      e: z.enum(['sync', 'async']),
      l: z.literal('completed'),
      a: z.array(z.string()).max(1),
    });
    const message = formatZodError(
      errorOf(S, {
        n: 1.5,
        p: 0,
        s: 'abcd',
        r: 'ABC',
        u: 'nope',
        d: 'yesterday',
        e: 'batch',
        l: 'running',
        a: ['x', 'y'],
      }),
    );
    expect(message.split('; ')).toEqual([
      'n: must be an integer, got number',
      'p: must be greater than 0',
      's: must be at most 3 characters long',
      'r: must match ^[a-z]+$',
      'u: must be a UUID',
      'd: must be an ISO 8601 date-time',
      'e: must be one of "sync", "async"',
      'l: must be "completed"',
      'a: must have at most 1 items',
    ]);
    const T = z.object({ m: z.number().multipleOf(5), b: z.boolean(), k: z.string().length(2) });
    expect(formatZodError(errorOf(T, { m: 7, b: 'true', k: 'abc' })).split('; ')).toEqual([
      'm: must be a multiple of 5',
      'b: must be a boolean, got string',
      'k: must be exactly 2 characters long',
    ]);
  });

  test('discriminated unions name the accepted tags', () => {
    const Pricing = z.discriminatedUnion('model', [
      z.object({ model: z.literal('free') }),
      z.object({ model: z.literal('flat'), price_usd: z.string() }),
    ]);
    expect(formatZodError(errorOf(z.object({ pricing: Pricing }), { pricing: { model: 'auction' } }))).toBe(
      'pricing.model: must be one of "free", "flat"',
    );
  });

  test('array indices and odd keys in paths; the prefix comes first', () => {
    const S = z.object({ observations: z.array(z.object({ hostname: z.string() })) });
    expect(formatZodError(errorOf(S, { observations: [{ hostname: 'a' }, {}] }), 'result')).toBe(
      'result.observations[1].hostname: required',
    );
    expect(formatZodError(errorOf(z.object({ limit: z.number() }), {}), 'query')).toBe(
      'query.limit: required',
    );
    expect(formatZodError(errorOf(z.string(), 5), 'body')).toBe('body: must be a string, got number');
    expect(formatZodError(errorOf(z.string(), 5))).toBe('must be a string, got number');
    expect(formatIssuePath(['headers', 'content-type', 'a b', 0])).toBe('headers.content-type["a b"][0]');
  });

  test('never echoes client values, and cuts echoed key names', () => {
    const message = formatZodError(
      errorOf(z.object({ token: z.number() }).strict(), { token: 'svc_live_secret', ['k'.repeat(500)]: 1 }),
    );
    expect(message).not.toContain('svc_live_secret');
    expect(message.length).toBeLessThan(200);
  });

  test('many issues are capped with a count', () => {
    const S = z.array(z.string());
    const message = formatZodError(
      errorOf(
        S,
        Array.from({ length: 25 }, (_, i) => i),
      ),
    );
    expect(message.split('; ')).toHaveLength(11);
    expect(message.endsWith('; and 15 more')).toBe(true);
  });
});
