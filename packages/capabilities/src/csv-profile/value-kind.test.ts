import { joinKinds, valueKind } from './value-kind';

describe('valueKind', () => {
  it.each([
    ['0', 'integer'],
    ['-42', 'integer'],
    ['+7', 'integer'],
    ['007', 'string'],
    ['1.5', 'number'],
    ['-.5', 'number'],
    ['1e3', 'number'],
    ['2.', 'number'],
    ['1,000', 'string'],
    ['1e999', 'string'],
    // Digits past Number.MAX_VALUE: not a number a profile can give as min/max/mean (JSON has no Infinity).
    [`1${'0'.repeat(400)}`, 'string'],
    [`-9${'9'.repeat(400)}`, 'string'],
    ['true', 'boolean'],
    ['FALSE', 'boolean'],
    ['yes', 'string'],
    ['2024-02-29', 'date'],
    ['2023-02-29', 'string'],
    ['2024-1-01', 'string'],
    ['2024-01-31T23:59:59.123Z', 'datetime'],
    ['2024-01-31 08:00', 'datetime'],
    ['2024-01-31T08:00:00+0530', 'datetime'],
    ['2024-01-31T24:00', 'string'],
    ['hello', 'string'],
  ])('%j is %s', (value, kind) => {
    expect(valueKind(value)).toBe(kind);
  });
});

describe('joinKinds', () => {
  it.each([
    ['empty', 'integer', 'integer'],
    ['integer', 'number', 'number'],
    ['number', 'integer', 'number'],
    ['date', 'datetime', 'datetime'],
    ['datetime', 'date', 'datetime'],
    ['integer', 'boolean', 'string'],
    ['date', 'integer', 'string'],
    ['string', 'integer', 'string'],
  ] as const)('%s + %s = %s', (type, kind, joined) => {
    expect(joinKinds(type, kind)).toBe(joined);
  });
});
