import { regionNames, replaceRegions } from '../src/regions';

describe('replaceRegions', () => {
  const doc =
    'intro\n<!-- generated:a -->\nold\n<!-- /generated:a -->\nmiddle\n<!-- generated:b -->\n<!-- /generated:b -->\n';

  test('replaces what is between the markers and keeps the rest', () => {
    expect(regionNames(doc)).toEqual(['a', 'b']);
    expect(replaceRegions(doc, { a: 'A', b: 'B' })).toBe(
      'intro\n<!-- generated:a -->\n\nA\n\n<!-- /generated:a -->\nmiddle\n<!-- generated:b -->\n\nB\n\n<!-- /generated:b -->\n',
    );
  });

  test('is stable: a second pass changes nothing', () => {
    const once = replaceRegions(doc, { a: 'A', b: 'B' });
    expect(replaceRegions(once, { a: 'A', b: 'B' })).toBe(once);
  });

  test('fails on a missing, doubled or unknown marker', () => {
    expect(() => replaceRegions(doc, { a: 'A', b: 'B', c: 'C' })).toThrow('region "c"');
    expect(() => replaceRegions(doc, { a: 'A' })).toThrow('unknown generated regions: b');
    expect(() => replaceRegions(`${doc}<!-- generated:a -->`, { a: 'A', b: 'B' })).toThrow('region "a"');
    expect(() => replaceRegions('<!-- /generated:a --><!-- generated:a -->', { a: 'A' })).toThrow(
      'region "a"',
    );
  });
});
