import { createHash } from 'node:crypto';
import { canonicalHash, canonicalJson, crtRequestHash, inputHash, runRequestHash } from './request-hash';

const INPUT = { apex: 'example.com', include_first_seen: false, limit: 100 };
const CLIENT_TYPE = 'api';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
  });

  it('refuses values JSON cannot carry instead of silently renaming them', () => {
    expect(() => canonicalJson({ a: 1n })).toThrow();
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson(() => 1)).toThrow();
  });

  it('treats an undefined property as absent, as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it('hashes as SHA-256 hex of that text', () => {
    const expected = createHash('sha256').update('{"a":1,"b":2}').digest('hex');
    expect(canonicalHash({ b: 2, a: 1 })).toBe(expected);
  });
});

describe('crtRequestHash', () => {
  const base = crtRequestHash({ input: INPUT, clientType: CLIENT_TYPE });

  it('does not depend on key order in the input', () => {
    const reordered = { limit: 100, include_first_seen: false, apex: 'example.com' };
    expect(crtRequestHash({ input: reordered, clientType: CLIENT_TYPE })).toBe(base);
  });

  it('is the hash of {slug, input, quote_id (null when absent), client_type}', () => {
    expect(base).toBe(canonicalHash({ slug: 'crt', input: INPUT, quote_id: null, client_type: CLIENT_TYPE }));
    expect(crtRequestHash({ input: INPUT, clientType: CLIENT_TYPE, quoteId: undefined })).toBe(base);
  });

  it('changes with any part of the request', () => {
    const variants = [
      crtRequestHash({ input: { ...INPUT, apex: 'example.org' }, clientType: CLIENT_TYPE }),
      crtRequestHash({ input: { ...INPUT, limit: 99 }, clientType: CLIENT_TYPE }),
      crtRequestHash({ input: { ...INPUT, include_first_seen: true }, clientType: CLIENT_TYPE }),
      crtRequestHash({ input: INPUT, clientType: 'mcp' }),
      crtRequestHash({
        input: INPUT,
        clientType: CLIENT_TYPE,
        quoteId: '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d',
      }),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });
});

describe('runRequestHash', () => {
  it("is crt's formula with the slug named: the same input under another slug is another request", () => {
    const request = { input: INPUT, clientType: CLIENT_TYPE };
    expect(runRequestHash({ ...request, slug: 'crt' })).toBe(crtRequestHash(request));
    expect(runRequestHash({ ...request, slug: 'crt-batch-plan' })).not.toBe(crtRequestHash(request));
  });
});

describe('inputHash', () => {
  it('hashes the canonical input alone (what the quote priced)', () => {
    expect(inputHash(INPUT)).toBe(canonicalHash(INPUT));
    expect(inputHash(INPUT)).toMatch(/^[0-9a-f]{64}$/);
    expect(inputHash(INPUT)).not.toBe(crtRequestHash({ input: INPUT, clientType: CLIENT_TYPE }));
  });
});
