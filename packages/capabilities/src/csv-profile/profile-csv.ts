import { pipeline, Transform, type TransformCallback } from 'node:stream';
import { type ResolvedFile, RUN_ERROR_CODES } from '@svc/contracts';
import { CsvError, parse } from 'csv-parse';
import type { CapabilityOutcome, FailedOutcome } from '../kit/outcome';
import type { RunStorage } from '../kit/run-storage';
import { ColumnStats } from './column-stats';
import { csvReadOptions } from './read-options';
import {
  CSV_DISTINCT_LIMIT,
  CSV_MAX_BYTES,
  CSV_MAX_COLUMNS,
  CSV_MAX_RECORD_CHARACTERS,
  type CsvProfileInput,
  type CsvProfileResult,
} from './schema';

/** characters: the longest record (CSV_MAX_RECORD_CHARACTERS, published in describe). */
export const CSV_MAX_RECORD_CHARS = CSV_MAX_RECORD_CHARACTERS;
/** characters: sample cells and column names are cut to this in the result (it travels as JSON). */
export const CSV_RESULT_CELL_CHARS = 1_000;
/** Rows between two looks at the abort signal. */
const ROWS_PER_CHECK = 1_000;

export interface CsvProfileJob {
  input: CsvProfileInput;
  /** The one resolved upload (the job payload's `files`). */
  file: ResolvedFile;
  storage: RunStorage;
}

export interface CsvProfileOptions {
  /** Distinct values counted exactly per column; default CSV_DISTINCT_LIMIT (tests lower it). */
  distinctLimit?: number;
  /** Bytes read at most; default CSV_MAX_BYTES. */
  maxBytes?: number;
}

/** The file broke a rule of ours or of CSV: the run fails `invalid_input` with this message. */
class CsvInputError extends Error {}

function cut(text: string): string {
  return text.length > CSV_RESULT_CELL_CHARS ? `${text.slice(0, CSV_RESULT_CELL_CHARS)}…` : text;
}

/**
 * csv-profile: one pass over the uploaded CSV as a stream (storage → byte counter → csv-parse), never
 * whole in memory: what is kept is one record (≤ CSV_MAX_RECORD_CHARS), the sample rows and
 * ColumnStats per column (bounded, see there). csv-parse options: the input's delimiter, a UTF-8
 * BOM stripped, blank lines skipped, ragged rows allowed (relax_column_count): a short row's missing
 * cells count as nulls, a long row's extra cells open new columns `column_<n>` (earlier rows count
 * as nulls there). Without a header the columns are `column_1…n`; an empty header cell is named the
 * same way.
 *
 * Failed `invalid_input` (final): malformed CSV (an unclosed or stray quote, a record over
 * CSV_MAX_RECORD_CHARS) with the line csv-parse stopped at; more than CSV_MAX_COLUMNS columns; more
 * than CSV_MAX_BYTES bytes. The signal is checked every ROWS_PER_CHECK rows. Throws (retried) on
 * storage faults.
 */
export async function profileCsv(
  job: CsvProfileJob,
  signal: AbortSignal,
  options: CsvProfileOptions = {},
): Promise<CapabilityOutcome<CsvProfileResult>> {
  const distinctLimit = options.distinctLimit ?? CSV_DISTINCT_LIMIT;
  const maxBytes = options.maxBytes ?? CSV_MAX_BYTES;
  const { input } = job;
  const counter = new ByteCounter(maxBytes);
  /** Line on which the last complete record ended (csv-parse reports where it stopped, not where the bad record began). */
  let lastRecordLine = 0;
  const parser = parse({
    ...csvReadOptions(input.delimiter),
    // Called as each record completes, before the consumer reads it (and even if it never does).
    on_record: (record, context) => {
      lastRecordLine = context.lines;
      return record;
    },
  });
  const source = await job.storage.openFile(job.file);
  // Errors of any stage destroy the others and surface in the iteration below.
  pipeline(source, counter, parser, () => {});
  const onAbort = () => parser.destroy(signal.reason instanceof Error ? signal.reason : undefined);
  signal.addEventListener('abort', onAbort, { once: true });

  const columns: ColumnStats[] = [];
  const sample: string[][] = [];
  let header: string[] | undefined;
  let rows = 0;
  const columnName = (index: number) => {
    const named = header?.[index]?.trim();
    return named ? cut(named) : `column_${index + 1}`;
  };
  try {
    for await (const record of parser) {
      if (!isRecord(record)) throw new Error('csv-parse produced a record that is not an array of strings');
      if (record.length > CSV_MAX_COLUMNS) {
        throw new CsvInputError(
          `record ${rows + (header ? 2 : 1)} has ${record.length} columns; at most ${CSV_MAX_COLUMNS} are profiled`,
        );
      }
      if (input.has_header && header === undefined) {
        header = record;
        for (let index = 0; index < record.length; index += 1) {
          columns.push(new ColumnStats(columnName(index), distinctLimit));
        }
        continue;
      }
      for (let index = columns.length; index < record.length; index += 1) {
        columns.push(new ColumnStats(columnName(index), distinctLimit, rows));
      }
      for (const [index, column] of columns.entries()) column.add(record[index]);
      if (sample.length < input.sample_rows) sample.push(record.map(cut));
      rows += 1;
      if (rows % ROWS_PER_CHECK === 0) signal.throwIfAborted();
    }
    signal.throwIfAborted();
  } catch (err) {
    signal.throwIfAborted();
    if (err instanceof CsvInputError) return invalidInput(err.message);
    if (err instanceof CsvError) {
      // `records` counts the header too: the broken one is the next.
      const record =
        typeof err.records === 'number' ? `record ${err.records + 1}, counting the header; ` : '';
      const stopped = typeof err.lines === 'number' ? ` at line ${err.lines}` : '';
      // Our words for csv-parse's code; its own message (an internal of the library) is logged only.
      return invalidInput(
        `the CSV is malformed${stopped}: ${malformation(err.code)} (${record}it starts after line ${lastRecordLine})`,
        err.message,
      );
    }
    if (err instanceof TooManyBytesError) return invalidInput(err.message);
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
    parser.destroy();
  }

  const result: CsvProfileResult = {
    upload_id: input.upload_id,
    rows,
    columns: columns.map((column) => column.profile()),
    sample_rows: sample,
    bytes: counter.bytes,
  };
  return { kind: 'completed', result };
}

function isRecord(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((cell) => typeof cell === 'string');
}

function invalidInput(message: string, detail?: string): FailedOutcome {
  return {
    kind: 'failed',
    error: { code: RUN_ERROR_CODES.invalidInput, message: `csv-profile: ${message}` },
    ...(detail === undefined ? {} : { detail }),
  };
}

/** What is wrong with the file, in words a client can fix it by, from csv-parse's error code. */
function malformation(code: string): string {
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (an opening " without its closing ")';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'a quoted field has characters after its closing " (write a " inside a quoted field as "")';
    case 'CSV_MAX_RECORD_SIZE':
      return `a record is longer than ${CSV_MAX_RECORD_CHARS} characters (file_requirements.max_record_characters)`;
    default:
      return 'the file cannot be read as CSV with this delimiter';
  }
}

class TooManyBytesError extends Error {
  constructor(limit: number) {
    super(`the file is larger than the limit of ${limit} bytes`);
    this.name = 'TooManyBytesError';
  }
}

/** Counts the bytes that pass and errors once more than `limit` did. */
class ByteCounter extends Transform {
  bytes = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) callback(new TooManyBytesError(this.limit));
    else callback(null, chunk);
  }
}
