import { FileFacts } from '@svc/contracts';
import { csvTableProbe } from './probe';
import { CSV_MAX_COLUMNS, CSV_MAX_RECORD_CHARACTERS, CsvProfileInput } from './schema';
import { CsvTableMeter } from './table-meter';

/** The facts of `text`, written in pieces of `pieceBytes` (as chunks arrive from a socket). */
async function factsOf(text: string | Buffer, pieceBytes = 64 * 1024) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const meter = new CsvTableMeter();
  for (let start = 0; start < bytes.length; start += pieceBytes) {
    meter.write(bytes.subarray(start, start + pieceBytes));
  }
  const { csv } = await meter.facts();
  return csv ?? {};
}

const row = (fields: number, cell = 'x') => Array.from({ length: fields }, () => cell).join(',');

describe('CsvTableMeter', () => {
  it('measures the widest record and the longest record once per delimiter csv-profile takes', async () => {
    const facts = await factsOf('name,city;country\nAda,"London; UK"\n\nBob,Paris,FR,extra\n');
    expect(facts).toEqual({
      ',': { columns: 4, max_record_characters: 16, complete: true },
      // With any other delimiter the quote of `Ada,"London; UK"` is inside a field: malformed there.
      ';': { columns: 2, max_record_characters: 16, complete: false },
      '\t': { columns: 1, max_record_characters: 17, complete: false },
      '|': { columns: 1, max_record_characters: 17, complete: false },
    });
    // The delimiters measured are exactly those csv-profile's input offers.
    expect(Object.keys(facts).sort()).toEqual([...CsvProfileInput.shape.delimiter.unwrap().options].sort());
    expect(FileFacts.parse({ csv: facts })).toEqual({ csv: facts });
  });

  it('gives the same facts whatever the chunks (a byte at a time, a multi-byte character split)', async () => {
    const text = '\ufeffcafé;naïve;日本\r\n"a ""quoted"" ; cell";b;c\r\n1;2;3;4\r\n';
    const whole = await factsOf(text);
    expect(await factsOf(text, 1)).toEqual(whole);
    expect(await factsOf(text, 5)).toEqual(whole);
    // The BOM is not part of the first field (csv-profile strips it too).
    expect(whole[';']).toEqual({ columns: 4, max_record_characters: 19, complete: true });
  });

  it(`counts a record of more than ${CSV_MAX_COLUMNS} fields as ${CSV_MAX_COLUMNS + 1} and stops reading there`, async () => {
    const wide = `${row(CSV_MAX_COLUMNS + 1)}\n${row(3)}\n`;
    const facts = await factsOf(wide);
    expect(facts[',']).toEqual({ columns: CSV_MAX_COLUMNS + 1, max_record_characters: 501, complete: false });
    // With another delimiter the same line is one wide field: within the limit.
    expect(facts[';']).toEqual({ columns: 1, max_record_characters: 1001, complete: true });
    // Exactly the limit is fine.
    expect((await factsOf(`${row(CSV_MAX_COLUMNS)}\n`))[',']).toEqual({
      columns: CSV_MAX_COLUMNS,
      max_record_characters: CSV_MAX_COLUMNS,
      complete: true,
    });
    expect((await factsOf(`${row(CSV_MAX_COLUMNS + 99)}\n`))[',']?.columns).toBe(CSV_MAX_COLUMNS + 1);
  });

  it('stops at a record of empty fields that never ends (no characters, but unbounded fields otherwise)', async () => {
    // 256 KiB of commas and a quote never closed: the record never completes, so only the count of
    // the record being read notices it (csv-parse would otherwise keep an array of 256 Ki fields).
    const endless = `${','.repeat(256 * 1024)}"never closed`;
    expect((await factsOf(endless))[',']).toEqual({
      columns: CSV_MAX_COLUMNS + 1,
      max_record_characters: 0,
      complete: false,
    });
  });

  it(`counts a record longer than ${CSV_MAX_RECORD_CHARACTERS} characters as one more and stops there`, async () => {
    // csv-parse lets a record of limit + 1 characters through and stops at the next character: so
    // does the run. The facts say "more than the limit" for both (the quote refuses both: describe
    // says "at most").
    const long = `a,b\n${'y'.repeat(CSV_MAX_RECORD_CHARACTERS)}zz\nc,d\n`;
    expect((await factsOf(long))[',']).toEqual({
      columns: 2,
      max_record_characters: CSV_MAX_RECORD_CHARACTERS + 1,
      complete: false,
    });
    const oneOver = `a,b\n${'y'.repeat(CSV_MAX_RECORD_CHARACTERS)}z\n`;
    expect((await factsOf(oneOver))[',']?.max_record_characters).toBe(CSV_MAX_RECORD_CHARACTERS + 1);
    const fits = `a,b\n${'y'.repeat(CSV_MAX_RECORD_CHARACTERS - 1)},z\n`;
    expect((await factsOf(fits))[',']).toEqual({
      columns: 2,
      max_record_characters: CSV_MAX_RECORD_CHARACTERS,
      complete: true,
    });
  });

  it('records what it read before a malformation (the upload still completes; the run says where)', async () => {
    const facts = await factsOf('a,b,c\n1,2\n"open,3\n4,5,6\n');
    expect(facts[',']).toEqual({ columns: 3, max_record_characters: 3, complete: false });
    expect(await factsOf('')).toEqual({
      ',': { columns: 0, max_record_characters: 0, complete: true },
      ';': { columns: 0, max_record_characters: 0, complete: true },
      '\t': { columns: 0, max_record_characters: 0, complete: true },
      '|': { columns: 0, max_record_characters: 0, complete: true },
    });
  });
});

describe('csvTableProbe', () => {
  it('measures text/csv only, with the meter above, fed as the bytes stream in', async () => {
    expect(csvTableProbe.contentTypes).toEqual(['text/csv']);
    const measure = (await csvTableProbe.measure()).default;
    expect(measure.reads).toBe('stream');
    if (measure.reads !== 'stream') return;
    const meter = measure.meter({ contentType: 'text/csv', sizeBytes: 4 });
    meter.write(Buffer.from('a,b\n'));
    expect(await meter.facts()).toEqual({
      csv: {
        ',': { columns: 2, max_record_characters: 2, complete: true },
        ';': { columns: 1, max_record_characters: 3, complete: true },
        '\t': { columns: 1, max_record_characters: 3, complete: true },
        '|': { columns: 1, max_record_characters: 3, complete: true },
      },
    });
  });
});
