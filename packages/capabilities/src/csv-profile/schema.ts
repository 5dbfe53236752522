import { CsvDelimiter, UploadId } from '@svc/contracts';
import { z } from 'zod';

/** Largest CSV `csv-profile` accepts (200 MiB: read as a stream, never whole). */
export const CSV_MAX_BYTES = 200 * 1024 * 1024;
/** Distinct values counted exactly per column; beyond it `distinct_exact` is false (a lower bound). */
export const CSV_DISTINCT_LIMIT = 10_000;
/** The record limits live beside CsvFacts in the contracts (the upload service measures up to them). */
export { CSV_MAX_COLUMNS, CSV_MAX_RECORD_CHARACTERS } from '@svc/contracts';
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
