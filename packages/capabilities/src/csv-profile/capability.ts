import { defineCapability } from '../define';
import { count, mebibytes } from '../figures';
import { csvTableProbe } from './probe';
import {
  CSV_CONTENT_TYPES,
  CSV_DISTINCT_LIMIT,
  CSV_MAX_BYTES,
  CSV_MAX_COLUMNS,
  CSV_MAX_RECORD_CHARACTERS,
  CsvProfileInput,
  CsvProfileResult,
} from './schema';

/** 1,000,000 bytes: the "megabyte" of per-MB prices (decimal, as storage is billed). */
const MEGABYTE = 1_000_000;

/**
 * `csv-profile` (supported, node): a one-pass profile of an uploaded CSV, streamed. Priced per
 * started megabyte of the file (decimal MB).
 *
 * Words for the full-text index: "csv", "profile", "profiling", "data quality", "columns",
 * "statistics", "schema", "types", "spreadsheet". The description names what each column gets and
 * how distinct counts behave past the limit.
 */
export const csvProfile = defineCapability({
  slug: 'csv-profile',
  name: 'CSV profile: column types, nulls, distinct values and statistics of a CSV file',
  description:
    'Profile a CSV file for data quality and schema discovery. Upload the CSV first (upload session), then pass ' +
    'its upload_id, the delimiter (comma, semicolon, tab or pipe) and whether the first row is a header. For ' +
    'every column: the inferred type (integer, number, boolean, date, datetime or string), the number of empty ' +
    `(null) cells, distinct values (exact up to ${count(CSV_DISTINCT_LIMIT)} per column, a lower bound beyond), ` +
    'min and max, and the mean of numeric columns; plus the row count and the first rows as a sample. Quoted ' +
    'fields, a UTF-8 byte order mark and ragged rows are handled; a malformed file (such as an unclosed quote) ' +
    `fails with invalid_input and the line. Limits: ${mebibytes(CSV_MAX_BYTES)} per file, read as a stream, and ` +
    `${count(CSV_MAX_COLUMNS)} columns. USD 0.001 per started megabyte (minimum USD 0.001).`,
  category: 'data',
  tags: [
    'csv',
    'profile',
    'profiling',
    'data-quality',
    'columns',
    'statistics',
    'schema',
    'types',
    'spreadsheet',
    'tabular',
  ],
  version: '1.0.0',
  pricing: {
    model: 'per_unit',
    currency: 'USD',
    unit: 'megabyte',
    unit_price_usd: '0.001',
    minimum_usd: '0.001',
    description: 'USD 0.001 per started megabyte of the file (minimum USD 0.001 per run).',
    // Per started megabyte (1,000,000 bytes) of the uploaded file.
    units: (_input, files) => files.reduce((sum, file) => sum + Math.ceil(file.size_bytes / MEGABYTE), 0),
  },
  files: {
    field: 'upload_id',
    min_files: 1,
    max_files: 1,
    max_size_bytes: CSV_MAX_BYTES,
    content_types: CSV_CONTENT_TYPES,
    // Enforced by the run (profile-csv.ts) and checked at quote time against the probe's facts (spec §2.1).
    max_columns: CSV_MAX_COLUMNS,
    max_record_characters: CSV_MAX_RECORD_CHARACTERS,
    probe: csvTableProbe,
  },
  execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
  workload: 'cpu',
  input: CsvProfileInput,
  result: CsvProfileResult,
  handler: () => import('./handler'),
});
