import { isStorableJsonObject, storableJsonObject } from './json';

describe('isStorableJsonObject', () => {
  it('accepts plain JSON objects, nested', () => {
    expect(isStorableJsonObject({ a: 1, b: [true, null, 'x', { c: 2.5 }], d: undefined })).toBe(true);
    expect(isStorableJsonObject({})).toBe(true);
  });

  it('refuses what JSON cannot carry faithfully, and non-objects', () => {
    for (const bad of [
      null,
      [],
      'x',
      1,
      { a: Number.NaN },
      { a: 1n },
      { a: new Date() },
      { a: () => 1 },
      { a: [Infinity] },
    ]) {
      expect(isStorableJsonObject(bad)).toBe(false);
    }
    expect(() => storableJsonObject([], 'input')).toThrow(new TypeError('input is not a JSON object'));
  });
});
