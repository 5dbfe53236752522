import { parseDateFlag, parseDuration, parseInput, parseIntInRange } from './args';
import { UsageError } from './usage-error';

describe('parseInput', () => {
  const files: Record<string, string> = { '/w/in.json': '{"text":"hi"}', '/w/list.json': '[1]' };
  const read = (path: string) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    return text;
  };

  it('takes JSON text or @file relative to cwd', () => {
    expect(parseInput('{"a":1}', '/w', read)).toEqual({ a: 1 });
    expect(parseInput('@in.json', '/w', read)).toEqual({ text: 'hi' });
    expect(parseInput('@/w/in.json', '/elsewhere', read)).toEqual({ text: 'hi' });
  });

  it.each([
    ['{"a":', /not valid JSON/],
    ['[1,2]', /must be a JSON object/],
    ['null', /must be a JSON object/],
    ['@', /file name is missing/],
    ['@nope.json', /cannot read nope.json: ENOENT/],
    ['@list.json', /list.json must be a JSON object/],
  ])('refuses %s as a usage error', (value, message) => {
    expect(() => parseInput(value, '/w', read)).toThrow(UsageError);
    expect(() => parseInput(value, '/w', read)).toThrow(message);
  });
});

describe('parseDuration', () => {
  it.each([
    ['60s', 60_000],
    ['2m', 120_000],
    ['500ms', 500],
    ['1h', 3_600_000],
    ['30', 30_000],
    ['1.5s', 1500],
  ])('%s → %d ms', (value, ms) => {
    expect(parseDuration(value)).toBe(ms);
  });
  it.each(['', 'soon', '-5s', '0s', '10d', '25h'])('refuses %j', (value) => {
    expect(() => parseDuration(value)).toThrow(UsageError);
  });
});

describe('parseIntInRange and parseDateFlag', () => {
  it('checks whole numbers in range', () => {
    expect(parseIntInRange('5', '--limit', 1, 100)).toBe(5);
    for (const bad of ['0', '101', '2.5', 'x', '-1']) {
      expect(() => parseIntInRange(bad, '--limit', 1, 100)).toThrow(UsageError);
    }
  });
  it('takes a date or an RFC 3339 time', () => {
    expect(parseDateFlag('2026-11-01', '--from')).toBe('2026-11-01T00:00:00Z');
    expect(parseDateFlag('2026-11-01T10:00:00Z', '--from')).toBe('2026-11-01T10:00:00Z');
    expect(() => parseDateFlag('yesterday', '--from')).toThrow(/--from must be a date/);
  });
});
