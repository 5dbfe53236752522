import { Readable } from 'node:stream';
import { createTempStore, type TempStore } from '../../test/support/temp-store';
import { type CapabilityOutcome, RunCancelledError } from '../kit/outcome';
import { STRING_BOUND_CHARS } from './column-stats';
import { type CsvProfileOptions, profileCsv } from './profile-csv';
import { CSV_DISTINCT_LIMIT, CsvProfileInput, CsvProfileResult } from './schema';

// csv-profile on CSV files written here, streamed from a real fs object store of a temp dir.

const never = new AbortController().signal;
let temp: TempStore;

beforeAll(async () => {
  temp = await createTempStore();
});

afterAll(async () => {
  await temp?.close();
});

async function profile(
  csv: string | Buffer | Readable,
  input: Partial<CsvProfileInput> = {},
  options: CsvProfileOptions = {},
  signal = never,
): Promise<CapabilityOutcome> {
  const body = typeof csv === 'string' ? Buffer.from(csv, 'utf8') : csv;
  const file = await temp.upload('data.csv', 'text/csv', body);
  const { storage } = temp.run();
  const parsed = CsvProfileInput.parse({ upload_id: file.upload_id, ...input });
  return profileCsv({ input: parsed, file, storage }, signal, options);
}

async function result(...args: Parameters<typeof profile>): Promise<CsvProfileResult> {
  const outcome = await profile(...args);
  if (outcome.kind !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
  expect(outcome.artifacts).toBeUndefined();
  return CsvProfileResult.parse(outcome.result);
}

function column(profiled: CsvProfileResult, name: string) {
  const found = profiled.columns.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no column ${name}`);
  return found;
}

describe('profileCsv', () => {
  it('infers types and computes nulls, distinct, min, max and mean per column', async () => {
    const csv = [
      'id,price,active,day,at,name,mixed,blank',
      '1,9.5,true,2024-01-31,2024-01-31T10:00:00Z,Ann,1,',
      '2,10,FALSE,2024-02-29,2024-02-01 08:30,Bob,x,',
      '3,,true,2023-12-01,2024-03-01T00:00:00+02:00,Ann,2024-01-01,',
      '10,-2.5e1,false,,2024-01-31,Cy,true,',
    ].join('\n');
    const profiled = await result(csv);
    expect(profiled.rows).toBe(4);
    expect(profiled.bytes).toBe(Buffer.byteLength(csv));
    expect(column(profiled, 'id')).toEqual({
      name: 'id',
      type: 'integer',
      nulls: 0,
      distinct: 4,
      distinct_exact: true,
      min: 1,
      max: 10,
      mean: 4,
    });
    expect(column(profiled, 'price')).toMatchObject({ type: 'number', nulls: 1, min: -25, max: 10 });
    expect(column(profiled, 'price').mean).toBeCloseTo(-5.5 / 3, 12);
    expect(column(profiled, 'active')).toMatchObject({
      type: 'boolean',
      distinct: 3,
      min: null,
      max: null,
      mean: null,
    });
    expect(column(profiled, 'day')).toMatchObject({
      type: 'date',
      nulls: 1,
      min: '2023-12-01',
      max: '2024-02-29',
    });
    // A calendar date among timestamps still fits a datetime column.
    expect(column(profiled, 'at')).toMatchObject({ type: 'datetime', nulls: 0, min: '2024-01-31' });
    expect(column(profiled, 'name')).toMatchObject({
      type: 'string',
      distinct: 3,
      min: 'Ann',
      max: 'Cy',
      mean: null,
    });
    expect(column(profiled, 'mixed')).toMatchObject({ type: 'string', distinct: 4 });
    expect(column(profiled, 'blank')).toEqual({
      name: 'blank',
      type: 'empty',
      nulls: 4,
      distinct: 0,
      distinct_exact: true,
      min: null,
      max: null,
      mean: null,
    });
  });

  it('keeps leading-zero codes and impossible dates as text', async () => {
    const profiled = await result('zip,day\n01234,2023-02-29\n98765,2023-13-01\n');
    expect(column(profiled, 'zip').type).toBe('string');
    expect(column(profiled, 'day').type).toBe('string');
  });

  it('handles quoted fields with delimiters, quotes and line breaks, and a UTF-8 BOM', async () => {
    const csv = '\ufeff"name","note"\n"Doe, Jane","said ""hi""\nthen left"\nplain,"x"\n';
    const profiled = await result(csv, { sample_rows: 5 });
    // The BOM is not part of the first column's name.
    expect(profiled.columns.map((c) => c.name)).toEqual(['name', 'note']);
    expect(profiled.rows).toBe(2);
    expect(profiled.sample_rows).toEqual([
      ['Doe, Jane', 'said "hi"\nthen left'],
      ['plain', 'x'],
    ]);
  });

  it('takes ragged rows: missing cells are nulls, extra cells open new columns', async () => {
    const profiled = await result('a,b\n1,2\n3\n4,5,6\n\n7,8\n');
    expect(profiled.rows).toBe(4); // the blank line is skipped
    expect(profiled.columns.map((c) => [c.name, c.nulls])).toEqual([
      ['a', 0],
      ['b', 1],
      ['column_3', 3],
    ]);
    expect(profiled.sample_rows).toEqual([['1', '2'], ['3'], ['4', '5', '6'], ['7', '8']]);
  });

  it('without a header names the columns column_1…n and counts every row', async () => {
    const profiled = await result('1;a\n2;b\n', { has_header: false, delimiter: ';', sample_rows: 1 });
    expect(profiled.rows).toBe(2);
    expect(profiled.columns.map((c) => [c.name, c.type])).toEqual([
      ['column_1', 'integer'],
      ['column_2', 'string'],
    ]);
    expect(profiled.sample_rows).toEqual([['1', 'a']]);
  });

  it('reads tab-separated values with delimiter \\t', async () => {
    const profiled = await result('x\ty\n1\t2\n', { delimiter: '\t' });
    expect(profiled.columns.map((c) => c.name)).toEqual(['x', 'y']);
  });

  it(`counts distinct values exactly up to the limit (${CSV_DISTINCT_LIMIT}), then as a lower bound`, async () => {
    const within = Array.from({ length: CSV_DISTINCT_LIMIT }, (_, i) => `v${i}`);
    const exact = await result(`value\n${within.join('\n')}\n${within.slice(0, 100).join('\n')}\n`);
    expect(column(exact, 'value')).toMatchObject({ distinct: CSV_DISTINCT_LIMIT, distinct_exact: true });
    const beyond = await result(`value\n${within.join('\n')}\nlast-one\nanother\n`);
    expect(column(beyond, 'value')).toMatchObject({
      distinct: CSV_DISTINCT_LIMIT + 1,
      distinct_exact: false,
    });
    expect(beyond.rows).toBe(CSV_DISTINCT_LIMIT + 2);
  });

  it('keeps min, max and mean finite at the ends of the number range (the result schema takes no Infinity)', async () => {
    const huge = `1${'0'.repeat(400)}`;
    const csv = ['big,wide', `${huge},-1.7e308`, `5,1.7e308`, `7,1.7e308`].join('\n');
    const profiled = await result(csv);
    // An integer beyond Number.MAX_VALUE is text, as 1e999 is: its column is a string column.
    expect(column(profiled, 'big')).toMatchObject({
      type: 'string',
      min: huge.slice(0, STRING_BOUND_CHARS),
      max: '7',
      mean: null,
    });
    const wide = column(profiled, 'wide');
    expect(wide).toMatchObject({ type: 'number', min: -1.7e308, max: 1.7e308 });
    expect(wide.mean).toBeCloseTo(1.7e308 / 3, -300);
  });

  it('returns at most sample_rows rows and cuts huge cells in the result', async () => {
    const profiled = await result(`a\n${'z'.repeat(5_000)}\n2\n3\n`, { sample_rows: 2 });
    expect(profiled.sample_rows).toHaveLength(2);
    expect(profiled.sample_rows[0]?.[0]).toBe(`${'z'.repeat(1_000)}…`);
    // min/max compare and report the first 256 characters.
    expect(column(profiled, 'a').max).toBe('z'.repeat(256));
  });

  it('fails invalid_input with the line for an unclosed quote', async () => {
    const outcome = await profile('a,b\n1,2\n3,"open\n4,5\n');
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message:
          'csv-profile: the CSV is malformed at line 4: a quoted field is never closed (an opening " without its ' +
          'closing ") (record 3, counting the header; it starts after line 2)',
      },
      // csv-parse's own words are for the worker's log only (issue 13).
      detail: expect.stringMatching(/^Quote Not Closed/),
    });
  });

  it('fails invalid_input with the line for a stray quote inside a field', async () => {
    const outcome = await profile('a,b\n1,"x"y\n');
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message:
          'csv-profile: the CSV is malformed at line 2: a quoted field has characters after its closing " ' +
          '(write a " inside a quoted field as "") (record 2, counting the header; it starts after line 1)',
      },
    });
  });

  it('fails invalid_input for a record over the size bound (an unclosed quote in a large file)', async () => {
    const outcome = await profile(`a\n"${'x'.repeat(1_100_000)}\n`);
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(/a record is longer than 1048576 characters/),
      },
    });
  });

  it('fails invalid_input for more than CSV_MAX_COLUMNS columns', async () => {
    const wide = Array.from({ length: 501 }, (_, i) => `c${i}`).join(',');
    const outcome = await profile(`${wide}\n`);
    expect(outcome).toEqual({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message: 'csv-profile: record 1 has 501 columns; at most 500 are profiled',
      },
    });
  });

  it('fails invalid_input past maxBytes', async () => {
    const outcome = await profile('a\n1\n2\n3\n', {}, { maxBytes: 4 });
    expect(outcome).toEqual({
      kind: 'failed',
      error: { code: 'invalid_input', message: 'csv-profile: the file is larger than the limit of 4 bytes' },
    });
  });

  it('stops with the signal reason when aborted mid-file', async () => {
    const controller = new AbortController();
    let rows = 0;
    // An endless CSV: only the abort can end this run.
    const endless = new Readable({
      read() {
        rows += 1_000;
        if (rows === 50_000) controller.abort(new RunCancelledError('run-x'));
        this.push(Buffer.from('1,2,3\n'.repeat(1_000)));
      },
    });
    const file = await temp.upload('endless.csv', 'text/csv', Buffer.from('a,b,c\n'));
    const { storage } = temp.run();
    const endlessStorage = { ...storage, openFile: async () => endless };
    const input = CsvProfileInput.parse({ upload_id: file.upload_id });
    await expect(
      profileCsv({ input, file, storage: endlessStorage }, controller.signal),
    ).rejects.toBeInstanceOf(RunCancelledError);
  });
});
