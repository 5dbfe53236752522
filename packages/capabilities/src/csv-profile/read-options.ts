import type { Options } from 'csv-parse';
import { CSV_MAX_RECORD_CHARACTERS, type CsvDelimiter } from './schema';

/**
 * csv-parse's options for reading a CSV with `delimiter`, shared by the run (profile-csv.ts) and the
 * probe (table-meter.ts), so the facts checked at quote time describe the table the run reads: a
 * UTF-8 BOM stripped, ragged rows allowed, blank lines skipped, at most CSV_MAX_RECORD_CHARACTERS
 * characters per record.
 */
export function csvReadOptions(delimiter: CsvDelimiter) {
  return {
    delimiter,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: CSV_MAX_RECORD_CHARACTERS,
  } as const satisfies Options;
}
