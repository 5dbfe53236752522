import { defineProbe, type LimitBreach } from '../kit/probe';
import { CsvTableFacts } from './facts';
import { CSV_CONTENT_TYPES, type CsvProfileInput } from './schema';

/**
 * csv-profile's probe (decisions U12): the widest and the longest record of a CSV, once per
 * delimiter the input may name, measured while the bytes stream in (table-meter.ts). At quote and
 * run start the facts of the input's delimiter are checked against `max_columns` and
 * `max_record_characters`. The counts stop one past the limits, so a figure over a limit is worded
 * "more than" the limit, never as an exact width or length.
 */
export const csvTableProbe = defineProbe({
  facts: CsvTableFacts,
  contentTypes: CSV_CONTENT_TYPES,
  measure: () => import('./table-meter'),
  checkLimits({ csv }, requirements, input: CsvProfileInput): LimitBreach | undefined {
    const facts = csv?.[input.delimiter];
    if (facts === undefined) return undefined;
    const { max_columns: maxColumns, max_record_characters: maxCharacters } = requirements;
    const readWith = `read with delimiter ${JSON.stringify(input.delimiter)}`;
    if (maxColumns !== undefined && facts.columns > maxColumns) {
      return {
        found: `has a record of more than ${maxColumns} columns (${readWith})`,
        limit: `${maxColumns} columns (file_requirements.max_columns)`,
      };
    }
    if (maxCharacters !== undefined && facts.max_record_characters > maxCharacters) {
      return {
        found: `has a record of more than ${maxCharacters} characters (${readWith})`,
        limit: `${maxCharacters} characters per record (file_requirements.max_record_characters)`,
      };
    }
    return undefined;
  },
});
