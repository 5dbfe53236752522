import { InvalidJsonError, JsonArrayStream } from './json-array-stream';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** Feeds `text` in chunks of `size` bytes; returns the items and the stream. */
function feed(text: string, size: number, maxBytes = 1_000_000) {
  const items: unknown[] = [];
  const stream = new JsonArrayStream(maxBytes, (item) => items.push(item));
  const all = bytes(text);
  for (let offset = 0; offset < all.length; offset += size) {
    if (!stream.write(all.subarray(offset, offset + size))) break;
  }
  stream.end();
  return { items, stream };
}

describe('JsonArrayStream', () => {
  it('hands over each element of an array split into tiny chunks (UTF-8 split mid-character too)', () => {
    const rows = [{ name_value: 'a.example.com\nb.example.com' }, { common_name: 'café' }, 3, 'x', null];
    for (const size of [1, 2, 7, 1_000]) {
      const { items, stream } = feed(` \n${JSON.stringify(rows)}\n `, size);
      expect(items).toEqual(rows);
      expect(stream.items).toBe(rows.length);
      expect(stream.truncated).toBe(false);
    }
  });

  it('accepts an empty array', () => {
    expect(feed('[]', 1).items).toEqual([]);
  });

  it('stops at the byte cap and keeps the elements completed before it', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: i, name_value: `h${i}.example.com` }));
    const text = JSON.stringify(rows);
    const cap = Math.floor(text.length / 2);
    const { items, stream } = feed(text, 64, cap);
    expect(stream.truncated).toBe(true);
    expect(stream.bytes).toBe(cap);
    expect(items.length).toBeGreaterThan(10);
    expect(items.length).toBeLessThan(100);
    // Only complete elements: the one cut by the cap is dropped.
    expect(items).toEqual(rows.slice(0, items.length));
    // Further writes are refused.
    expect(stream.write(bytes('{}'))).toBe(false);
  });

  it.each([
    ['{"error":"rate limited"}', 'answer is not a JSON array'],
    ['<html><body>502 Bad Gateway</body></html>', 'answer is not a JSON array'],
    ['"text"', 'answer is not a JSON array'],
  ])('rejects %j', (text, message) => {
    expect(() => feed(text, 5)).toThrow(new InvalidJsonError(message));
  });

  it('rejects malformed JSON inside the array', () => {
    expect(() => feed('[{"a":1},{"b":tru}]', 4)).toThrow(/^invalid JSON$/);
  });

  it('rejects an answer that ends in the middle of the array (a cut-off body)', () => {
    expect(() => feed('[{"a":1},{"b":', 3)).toThrow('answer ended in the middle of the JSON array');
  });

  it('rejects an empty body and garbage after the array', () => {
    expect(() => feed('', 3)).toThrow('empty answer');
    expect(() => feed('[1,2] [3]', 3)).toThrow(/^invalid JSON$/);
  });
});
