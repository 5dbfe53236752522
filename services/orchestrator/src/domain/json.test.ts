import { isStorableJsonObject, storableJsonArray, storableJsonObject } from './json';

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

describe('storableJsonArray', () => {
  it('keeps JSON arrays (of objects: the run files) and refuses anything else', () => {
    const files = [
      { upload_id: 'a', facts: { pages: 2 } },
      { upload_id: 'b', facts: {} },
    ];
    expect(storableJsonArray(files, 'files')).toBe(files);
    expect(storableJsonArray([], 'files')).toEqual([]);
    expect(() => storableJsonArray({}, 'files')).toThrow(new TypeError('files is not a JSON array'));
    expect(() => storableJsonArray([{ at: new Date() }], 'files')).toThrow(TypeError);
    expect(() => storableJsonArray([undefined], 'files')).toThrow(TypeError);
  });
});
