import { finished } from 'node:stream/promises';
import type { CsvFacts } from '@svc/contracts';
import { CsvError, Parser } from 'csv-parse';
import { type FileMeter, streamMeasure } from '../kit/probe';
import type { CsvTableFacts } from './facts';
import { csvReadOptions } from './read-options';
import { CSV_DELIMITERS, CSV_MAX_COLUMNS, CSV_MAX_RECORD_CHARACTERS, type CsvDelimiter } from './schema';

/**
 * The facts of a CSV upload (docs/decisions.md U6, U12; issue 13: csv-profile's `max_columns` and
 * `max_record_characters` are checked at quote time), measured while the bytes stream in: one
 * csv-parse read per delimiter csv-profile takes (the same bytes are a different table with each),
 * with the options the run reads with (csvReadOptions), so both agree on what a record is. Nothing
 * is kept but counts: records are counted and dropped as they complete (RecordParser). A read stops
 * at the first record over a limit (as the run would), or where the CSV is malformed with that
 * delimiter; the upload completes either way (the run reports a malformed CSV, with its line).
 *
 * Memory per read: csv-parse holds at most one record (its `max_record_size`, 1 Mi characters),
 * and the fields of the record being read are counted between two pieces of at most PIECE_BYTES:
 * a record of empty fields (`,,,,…`) counts no characters, so without that check one long line
 * would grow csv-parse's field array with every byte.
 */

/** bytes: the most handed to a read at once; the record being read is checked between pieces. */
const PIECE_BYTES = 64 * 1024;

/**
 * Fields of the record csv-parse is in the middle of (`state.record` of its Parser: not in its
 * typings, set by the Parser "for backward compatibility"), or null when it has no such state.
 */
function pendingFields(parser: Parser): number | null {
  const state: unknown = Reflect.get(parser, 'state');
  if (typeof state !== 'object' || state === null) return null;
  const record: unknown = Reflect.get(state, 'record');
  return Array.isArray(record) ? record.length : null;
}

/** characters of a record as csv-parse counts them for `max_record_size`: its fields' lengths. */
function recordCharacters(record: readonly unknown[]): number {
  let characters = 0;
  for (const field of record) if (typeof field === 'string') characters += field.length;
  return characters;
}

/**
 * A csv-parse Parser that hands each record to `onRecord` as it completes instead of queueing it
 * on its readable side (nothing is kept). Not `on_record`: csv-parse builds three context objects
 * per record for it, which made the measurement 4–7 times slower on short records (measured: 8 MB
 * of `a,b` rows, 6.6 s with `on_record`, 0.9 s here).
 */
class RecordParser extends Parser {
  readonly #onRecord: (record: unknown) => void;

  constructor(delimiter: CsvDelimiter, onRecord: (record: unknown) => void) {
    super(csvReadOptions(delimiter));
    this.#onRecord = onRecord;
  }

  // csv-parse's Parser pushes every record, and null at the end (a throw here would leave write()).
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null) return super.push(null, encoding);
    this.#onRecord(chunk);
    return true;
  }
}

/** One read of the CSV with one delimiter. */
class DelimiterRead {
  #columns = 0;
  #longest = 0;
  /** Why the read stopped early; null while it reads (or once it read the whole file). */
  #stopped: 'limit' | 'malformed' | 'unmeasurable' | null = null;
  readonly #parser: Parser;

  constructor(delimiter: CsvDelimiter) {
    this.#parser = new RecordParser(delimiter, (record) => {
      if (Array.isArray(record)) this.#count(record);
    });
    // Only the end is pushed; flowing lets the read end and clean up.
    this.#parser.resume();
    this.#parser.on('error', (err) => this.#stop(err));
  }

  write(piece: Buffer): void {
    if (this.#stopped !== null) return;
    try {
      this.#parser.write(piece);
    } catch {
      // Not expected of a live stream given a Buffer; if it happens, no facts rather than no upload.
      this.#stopped = 'unmeasurable';
      this.#parser.destroy();
      return;
    }
    // csv-parse reports a broken record during write(): errored is set at once, 'error' comes later.
    if (this.#parser.errored !== null) {
      this.#stop(this.#parser.errored);
      return;
    }
    if (this.#stopped !== null) {
      // A record over the column limit (#count): the run stops there, so does the read.
      this.#parser.destroy();
      return;
    }
    const pending = pendingFields(this.#parser);
    if (pending === null) {
      // A csv-parse without the state we count with: this delimiter gets no facts, not an unbounded read.
      this.#stopped = 'unmeasurable';
      this.#parser.destroy();
    } else if (pending > CSV_MAX_COLUMNS) {
      this.#columns = CSV_MAX_COLUMNS + 1;
      this.#stopped = 'limit';
      this.#parser.destroy();
    }
  }

  /** The facts, once the whole file was written; null when this delimiter could not be measured. */
  async end(): Promise<CsvFacts | null> {
    if (this.#stopped === null) {
      this.#parser.end();
      await finished(this.#parser).catch((err: unknown) => this.#stop(err));
    }
    if (this.#stopped === 'unmeasurable') return null;
    return {
      columns: this.#columns,
      max_record_characters: this.#longest,
      complete: this.#stopped === null,
    };
  }

  #count(record: readonly unknown[]): void {
    // The rest of a piece is still parsed after a record over the limit; the run would not see it.
    if (this.#stopped !== null) return;
    this.#columns = Math.max(this.#columns, Math.min(record.length, CSV_MAX_COLUMNS + 1));
    this.#longest = Math.max(this.#longest, recordCharacters(record));
    if (record.length > CSV_MAX_COLUMNS) this.#stopped = 'limit';
  }

  #stop(err: unknown): void {
    if (this.#stopped !== null) return;
    if (err instanceof CsvError && err.code === 'CSV_MAX_RECORD_SIZE') {
      // csv-parse stops as soon as the record passes the limit: its length is "more than that".
      this.#longest = CSV_MAX_RECORD_CHARACTERS + 1;
      this.#stopped = 'limit';
    } else {
      this.#stopped = 'malformed';
    }
  }
}

/**
 * The probe's meter of one CSV upload: one read per delimiter, fed as the bytes arrive; its facts
 * are `{ csv: { ",": …, ";": …, … } }` (a delimiter that could not be measured is left out).
 */
export class CsvTableMeter implements FileMeter<CsvTableFacts> {
  readonly #reads = CSV_DELIMITERS.map((delimiter) => ({ delimiter, read: new DelimiterRead(delimiter) }));

  write(chunk: Buffer): void {
    for (let start = 0; start < chunk.length; start += PIECE_BYTES) {
      const piece = chunk.subarray(start, start + PIECE_BYTES);
      for (const { read } of this.#reads) read.write(piece);
    }
  }

  /** The facts per delimiter; call once every byte was written. Never rejects. */
  async facts(): Promise<CsvTableFacts> {
    const csv: NonNullable<CsvTableFacts['csv']> = {};
    for (const { delimiter, read } of this.#reads) {
      const facts = await read.end();
      if (facts !== null) csv[delimiter] = facts;
    }
    return { csv };
  }
}

/** csvTableProbe's measure: a meter per upload, fed while the bytes stream in (never read back). */
export default streamMeasure(() => new CsvTableMeter());
