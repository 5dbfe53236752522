import { z } from 'zod';
import { toJsonSchema } from '../src/index';

const Sample = z.object({
  name: z.string(),
  mode: z.enum(['a', 'b']).default('a'),
  size: z.coerce.number().int().min(1).default(1),
});

describe('toJsonSchema', () => {
  test('is draft 2020-12', () => {
    expect(toJsonSchema(z.string()).$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  test('defaults to the request side: defaulted fields are optional', () => {
    expect(toJsonSchema(Sample).required).toEqual(['name']);
    expect(toJsonSchema(Sample, { io: 'output' }).required).toEqual(['name', 'mode', 'size']);
  });

  test('only strict objects forbid additional properties, on both sides', () => {
    for (const io of ['input', 'output'] as const) {
      expect(toJsonSchema(Sample, { io })).not.toHaveProperty('additionalProperties');
      expect(toJsonSchema(Sample.strict(), { io }).additionalProperties).toBe(false);
    }
  });

  test('keeps descriptions', () => {
    const schema = toJsonSchema(z.object({ apex: z.string().describe('The domain.') }));
    expect(schema.properties).toEqual({ apex: { type: 'string', description: 'The domain.' } });
  });

  test('throws on what JSON Schema cannot represent instead of publishing {}', () => {
    expect(() => toJsonSchema(z.object({ when: z.date() }))).toThrow();
    expect(() => toJsonSchema(z.object({ n: z.bigint() }))).toThrow();
  });
});
