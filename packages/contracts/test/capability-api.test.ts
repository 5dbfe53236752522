import { ListCapabilitiesQuery, ListCapabilitiesResponse } from '../src/index';

describe('ListCapabilitiesQuery (query strings in)', () => {
  test('defaults: limit 20, q and category absent', () => {
    expect(ListCapabilitiesQuery.parse({})).toEqual({ limit: 20 });
  });

  test('coerces limit from a string and enforces 1..100 integers', () => {
    expect(ListCapabilitiesQuery.parse({ limit: '5' }).limit).toBe(5);
    expect(ListCapabilitiesQuery.parse({ limit: '100' }).limit).toBe(100);
    for (const limit of ['0', '101', '1.5', 'abc', '', '-3']) {
      expect({ limit, success: ListCapabilitiesQuery.safeParse({ limit }).success }).toEqual({
        limit,
        success: false,
      });
    }
  });

  test('q is trimmed and 1..200 characters', () => {
    expect(ListCapabilitiesQuery.parse({ q: '  pdf to text  ' }).q).toBe('pdf to text');
    expect(ListCapabilitiesQuery.safeParse({ q: '   ' }).success).toBe(false);
    expect(ListCapabilitiesQuery.safeParse({ q: 'x'.repeat(200) }).success).toBe(true);
    expect(ListCapabilitiesQuery.safeParse({ q: 'x'.repeat(201) }).success).toBe(false);
  });

  test('category is slug-shaped', () => {
    expect(ListCapabilitiesQuery.parse({ category: 'dns' }).category).toBe('dns');
    expect(ListCapabilitiesQuery.safeParse({ category: 'DNS stuff' }).success).toBe(false);
  });

  test('unknown and repeated parameters are rejected (a typo must not list everything)', () => {
    expect(ListCapabilitiesQuery.safeParse({ catgory: 'dns' }).success).toBe(false);
    expect(ListCapabilitiesQuery.safeParse({ q: ['a', 'b'] }).success).toBe(false);
  });
});

test('ListCapabilitiesResponse echoes the applied query', () => {
  const body = { ok: true, capabilities: [], count: 0, query: { q: null, category: 'dns', limit: 20 } };
  expect(ListCapabilitiesResponse.safeParse(body).success).toBe(true);
  expect(ListCapabilitiesResponse.safeParse({ ...body, query: { q: null, limit: 20 } }).success).toBe(false);
  expect(ListCapabilitiesResponse.safeParse({ ...body, count: -1 }).success).toBe(false);
});
