import { UploadId } from '@svc/contracts';
import { z } from 'zod';

/** Largest CSV `csv-profile` accepts (200 MiB: read as a stream, never whole). */
export const CSV_MAX_BYTES = 200 * 1024 * 1024;
/** Distinct values counted exactly per column; beyond it `distinct_exact` is false (a lower bound). */
export const CSV_DISTINCT_LIMIT = 10_000;
/**
 * Columns one record may have: a quote or run for a CSV with a wider record is refused (422, from the
 * upload's facts: probe.ts), and the run fails at such a record as it reads.
 */
export const CSV_MAX_COLUMNS = 500;
/**
 * characters: the longest record csv-parse buffers (1 MiB). Bounds memory on a file whose quote
 * never closes (the parser would otherwise hold the rest of the file as one field).
 */
export const CSV_MAX_RECORD_CHARACTERS = 1024 * 1024;
/**
 * The field delimiters a CSV may be read with (the input's `delimiter`). The same bytes are a
 * different table with each, so the probe measures a CSV once per delimiter.
 */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;
export const CsvDelimiter = z.enum(CSV_DELIMITERS);
export type CsvDelimiter = z.infer<typeof CsvDelimiter>;
export const CSV_CONTENT_TYPES = ['text/csv'] as const;

/** Input of `csv-profile`: one uploaded CSV file. */
export const CsvProfileInput = z
  .object({
    upload_id: UploadId.describe('upload_id of a completed upload session of this capability (text/csv).'),
    delimiter: CsvDelimiter.default(',').describe('Field delimiter.'),
    has_header: z.boolean().default(true).describe('The first row names the columns.'),
    sample_rows: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(5)
      .describe('Rows returned as a sample, from the start.'),
  })
  .strict();
export type CsvProfileInput = z.infer<typeof CsvProfileInput>;

/** Inferred column type: the narrowest type every non-empty value fits. */
export const CsvColumnType = z.enum(['empty', 'integer', 'number', 'boolean', 'date', 'datetime', 'string']);

export const CsvColumnProfile = z
  .object({
    name: z.string(),
    type: CsvColumnType,
    /** Empty cells (and missing trailing cells). */
    nulls: z.number().int().min(0),
    distinct: z.number().int().min(0),
    /** False when the column had more than CSV_DISTINCT_LIMIT distinct values: `distinct` is a lower bound. */
    distinct_exact: z.boolean(),
    /** integer/number: numeric min/max/mean; date/datetime/string: min/max as strings; null otherwise. */
    min: z.union([z.number(), z.string()]).nullable(),
    max: z.union([z.number(), z.string()]).nullable(),
    mean: z.number().nullable(),
  })
  .strict();
export type CsvColumnProfile = z.infer<typeof CsvColumnProfile>;

export const CsvProfileResult = z
  .object({
    upload_id: UploadId,
    /** Data rows (the header not counted). */
    rows: z.number().int().min(0),
    columns: z.array(CsvColumnProfile),
    sample_rows: z.array(z.array(z.string())),
    bytes: z.number().int().min(0),
  })
  .strict();
export type CsvProfileResult = z.infer<typeof CsvProfileResult>;
