import { FileFacts } from '@svc/contracts';
import { z } from 'zod';

/**
 * What csv-profile's probe records of a CSV: its facts per delimiter (`csv[","]`, …; the shape the
 * contracts publish as FileFacts `csv`). Absent for a CSV uploaded before the probe existed.
 */
export const CsvTableFacts = z.object({ csv: FileFacts.shape.csv });
export type CsvTableFacts = z.infer<typeof CsvTableFacts>;
