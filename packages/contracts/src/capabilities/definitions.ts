import type { z } from 'zod';
import { CrtInput, CrtResult } from '../crt';
import type { ResolvedFile } from '../uploads';
import { CrtBatchPlanInput, CrtBatchPlanResult } from './crt-batch-plan';
import { CsvProfileInput, CsvProfileResult } from './csv-profile';
import { HtmlToPdfInput, HtmlToPdfResult } from './html-to-pdf';
import { ImageThumbnailInput, ImageThumbnailResult } from './image-thumbnail';
import { PdfExtractTextInput, PdfExtractTextResult } from './pdf-extract-text';
import { PiiRedactInput, PiiRedactResult, piiRedactUnits } from './pii-redact';
import { WhoisInput } from './whois';

/** What pricing may read of an input's files (the upload service's facts; decisions U6). */
export type PricedFile = Pick<ResolvedFile, 'upload_id' | 'size_bytes' | 'facts'>;

/**
 * What the code knows about a capability, shared by the registry (its manifest's input schema), the
 * orchestrator (input validation and priced units) and the workers (input and result types). What is
 * published about it (status, pricing, runtime) is the registry's record: the describe response is
 * the source of truth (spec §1.2).
 */
export interface CapabilityDefinition {
  readonly slug: string;
  /** Schema of the quote/run `input` (defaults applied by parsing). */
  readonly input: z.ZodObject;
  /** Schema a completed run's result must match; absent for capabilities that never run. */
  readonly result?: z.ZodType;
  /**
   * Units of the per_unit pricing model that an input measures (absent: not per_unit), with the
   * input's files resolved (empty for capabilities without files). Takes the raw input and parses it
   * itself, so callers need no cast; throws like `input.parse`.
   */
  readonly units?: (input: unknown, files: readonly PricedFile[]) => number;
  /** The upload ids an input names (`upload_id` / `upload_ids`, spec §4 rule 1); absent: takes no files. */
  readonly files?: (input: unknown) => string[];
}

function define<I extends z.ZodObject>(definition: {
  slug: string;
  input: I;
  result?: z.ZodType;
  units?: (input: z.output<I>, files: readonly PricedFile[]) => number;
  files?: (input: z.output<I>) => string[];
}): CapabilityDefinition {
  const { units, files, ...rest } = definition;
  const parse = (raw: unknown) => definition.input.parse(raw);
  return {
    ...rest,
    ...(units === undefined
      ? {}
      : { units: (raw: unknown, priced: readonly PricedFile[]) => units(parse(raw), priced) }),
    ...(files === undefined ? {} : { files: (raw: unknown) => files(parse(raw)) }),
  };
}

/** 1,000,000 bytes: the "megabyte" of per-MB prices (decimal, as storage is billed). */
const MEGABYTE = 1_000_000;

export const CAPABILITY_DEFINITIONS: Readonly<Record<string, CapabilityDefinition>> = {
  crt: define({ slug: 'crt', input: CrtInput, result: CrtResult }),
  'pii-redact': define({
    slug: 'pii-redact',
    input: PiiRedactInput,
    result: PiiRedactResult,
    units: piiRedactUnits,
  }),
  'crt-batch-plan': define({ slug: 'crt-batch-plan', input: CrtBatchPlanInput, result: CrtBatchPlanResult }),
  'html-to-pdf': define({ slug: 'html-to-pdf', input: HtmlToPdfInput, result: HtmlToPdfResult }),
  whois: define({ slug: 'whois', input: WhoisInput }),
  'pdf-extract-text': define({
    slug: 'pdf-extract-text',
    input: PdfExtractTextInput,
    result: PdfExtractTextResult,
    files: (input) => [input.upload_id],
    // Per page of the uploaded PDF (counted by the upload service when the bytes arrived).
    units: (_input, files) => files.reduce((sum, file) => sum + (file.facts.pages ?? 0), 0),
  }),
  'image-thumbnail': define({
    slug: 'image-thumbnail',
    input: ImageThumbnailInput,
    result: ImageThumbnailResult,
    files: (input) => input.upload_ids,
    // Per image, whatever the number of sizes.
    units: (input) => input.upload_ids.length,
  }),
  'csv-profile': define({
    slug: 'csv-profile',
    input: CsvProfileInput,
    result: CsvProfileResult,
    files: (input) => [input.upload_id],
    // Per started megabyte of the file.
    units: (_input, files) => files.reduce((sum, file) => sum + Math.ceil(file.size_bytes / MEGABYTE), 0),
  }),
};

/** The definition of `slug`, or undefined when this build has none (the capability cannot run here). */
export function capabilityDefinition(slug: string): CapabilityDefinition | undefined {
  return Object.hasOwn(CAPABILITY_DEFINITIONS, slug) ? CAPABILITY_DEFINITIONS[slug] : undefined;
}

/** Priced units of an input and its resolved files (0 when the definition measures none). */
export function unitsOf(
  definition: CapabilityDefinition,
  input: unknown,
  files: readonly PricedFile[] = [],
): number {
  return definition.units === undefined ? 0 : definition.units(input, files);
}

/** The upload ids an input names (none for capabilities without files). */
export function filesOf(definition: CapabilityDefinition, input: unknown): string[] {
  return definition.files === undefined ? [] : definition.files(input);
}
