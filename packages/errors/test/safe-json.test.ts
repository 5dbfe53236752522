import { JSON_INPUT_LIMITS } from '@svc/contracts';
import { assertSafeJson, findUnsafeJson, ValidationError } from '../src';

/** `levels` arrays or objects inside each other around `leaf`, built without recursion. */
function nested(levels: number, leaf: unknown = 'x', kind: 'array' | 'object' = 'object'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

function messageOf(value: unknown, options?: Parameters<typeof assertSafeJson>[1]): string {
  try {
    assertSafeJson(value, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected a ValidationError');
}

describe('safe JSON (issue 13 findings 2 and 3)', () => {
  it('passes ordinary JSON, paired surrogates (emoji) and every other control character', () => {
    const value = {
      input: { text: 'Mail jane@example.com 😀 \u0001\t\n', n: [1, -2.5, 0, null, true], o: {} },
    };
    expect(findUnsafeJson(value)).toBeUndefined();
  });

  it.each([
    ['NUL', 'a\u0000b', 'input.text: must not contain NUL characters'],
    ['a lone high surrogate', 'a\ud800', 'input.text: must not contain unpaired UTF-16 surrogates'],
    ['a lone low surrogate', '\udc00b', 'input.text: must not contain unpaired UTF-16 surrogates'],
    [
      'surrogates in the wrong order',
      '\udc00\ud800',
      'input.text: must not contain unpaired UTF-16 surrogates',
    ],
  ])('names the field of a string with %s', (_what, text, message) => {
    expect(messageOf({ input: { text } })).toBe(message);
  });

  it('names array items and uses the prefix and root names', () => {
    expect(messageOf({ input: { apexes: ['ok.com', 'x\u0000.com'] } })).toBe(
      'input.apexes[1]: must not contain NUL characters',
    );
    expect(messageOf({ q: '\u0000' }, { prefix: 'query' })).toBe('query.q: must not contain NUL characters');
    expect(messageOf('\u0000', { root: 'path' })).toBe('path: must not contain NUL characters');
  });

  it('names the object holding a bad property name without echoing the name', () => {
    const message = messageOf({ input: { 'te\u0000xt': 'a' } });
    expect(message).toBe('input: property names must not contain NUL characters');
  });

  it('refuses numbers JSON cannot carry (JSON.parse gives Infinity for 1e400)', () => {
    expect(messageOf(JSON.parse('{"input":{"limit":1e400}}'))).toBe('input.limit: must be a finite number');
  });

  it('bounds the nesting, naming the outer field, and walks 200,000 levels without overflowing', () => {
    const limit = JSON_INPUT_LIMITS.maxDepth;
    // The body is level 1 and input level 2: text may hold limit - 2 levels.
    expect(findUnsafeJson({ input: { text: nested(limit - 2) } })).toBeUndefined();
    const tooDeep = `input.text: must not nest arrays and objects more than ${limit} levels deep`;
    expect(messageOf({ input: { text: nested(limit - 1) } })).toBe(tooDeep);
    expect(messageOf({ input: { text: nested(200_000, 'x', 'array') } })).toBe(tooDeep);
    expect(messageOf(nested(200_000, 'x', 'array'))).toBe(
      `[0][0]: must not nest arrays and objects more than ${limit} levels deep`,
    );
  });

  it('bounds the count of values, property names included', () => {
    const max = JSON_INPUT_LIMITS.maxNodes;
    // body + input + "items" + the array = 5 values before the items.
    expect(findUnsafeJson({ input: { items: new Array(max - 5).fill(0) } })).toBeUndefined();
    expect(messageOf({ input: { items: new Array(max - 4).fill(0) } })).toBe(
      `input: must hold at most ${max} values (items, properties and their names)`,
    );
    const wide = Object.fromEntries(Array.from({ length: max / 2 }, (_, i) => [`k${i}`, 0]));
    expect(messageOf({ wide })).toMatch(/^wide: must hold at most/);
  });
});
