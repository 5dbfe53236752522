import { z } from 'zod';
import { DateTime, MIME_TOKEN, Slug, UsdAmount } from './common';
import { EffectiveRunStatus, effectiveRunStatus, MachineRunStatus } from './execution';

/** Human sentence shown next to a price, e.g. "Free." or "USD 0.004 per 1000 characters". */
const PriceDescription = z.string().min(1).max(500);

/**
 * How a capability is priced (spec §2.1: pricing is present in describe; its shape is ours).
 * Money is a UsdAmount decimal string. Objects are strict: manifests are authored in code and a
 * misspelt key must fail at seed time rather than vanish.
 */
export const Pricing = z.discriminatedUnion('model', [
  z.object({ model: z.literal('free'), currency: z.literal('USD'), description: PriceDescription }).strict(),
  z
    .object({
      model: z.literal('flat'),
      currency: z.literal('USD'),
      price_usd: UsdAmount,
      description: PriceDescription,
    })
    .strict(),
  z
    .object({
      model: z.literal('per_unit'),
      currency: z.literal('USD'),
      // e.g. "1000_characters", "page", "image", "megabyte"
      unit: z.string().regex(/^[a-z0-9_]{1,40}$/, 'must be 1-40 lowercase letters, digits or underscores'),
      unit_price_usd: UsdAmount,
      minimum_usd: UsdAmount.optional(),
      description: PriceDescription,
    })
    .strict(),
]);
export type Pricing = z.infer<typeof Pricing>;

/** MIME type `type/subtype`; the subtype may be `*` ("image/*"). */
const MimeType = z
  .string()
  .regex(new RegExp(`^${MIME_TOKEN}/(?:\\*|${MIME_TOKEN})$`), 'must be a lowercase MIME type');

/** A content limit of each file; absent = the capability has no such limit (or takes no such file). */
const FileContentLimit = z.number().int().min(1).optional();

/**
 * Spec §2.1 / §4 rule 4: file requirements, against which filename, MIME type and size are
 * validated before upload. `max_size_bytes` null = no per-file limit of the capability's own.
 *
 * Spec §2.1 makes describe the source of truth, so every limit a capability enforces on the content
 * of a file is published here too (issue 13; additive, optional): `max_pages` (pages of a PDF) and
 * `max_pixels` (width × height of an image) are checked at quote and run time against the facts the
 * upload service measured, so a quote that could not run is refused (422) rather than cleared; so are
 * `max_columns` and `max_record_characters` (CSV), measured per delimiter as the bytes arrived
 * (FileFacts `csv`; the worker checks them again as it reads).
 */
export const FileRequirements = z
  .object({
    accepts_files: z.boolean(),
    min_files: z.number().int().min(0),
    max_files: z.number().int().min(0),
    max_size_bytes: z.number().int().min(1).nullable(),
    content_types: z.array(MimeType),
    max_pages: FileContentLimit,
    max_pixels: FileContentLimit,
    max_columns: FileContentLimit,
    max_record_characters: FileContentLimit,
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.min_files > value.max_files) {
      ctx.addIssue({ code: 'custom', path: ['min_files'], message: 'must not exceed max_files' });
    }
    if (!value.accepts_files && value.max_files > 0) {
      ctx.addIssue({ code: 'custom', path: ['max_files'], message: 'must be 0 when accepts_files is false' });
    }
  });
export type FileRequirements = z.infer<typeof FileRequirements>;

/** File requirements of a capability that takes no files (its input is JSON only). */
export const NO_FILES: FileRequirements = {
  accepts_files: false,
  min_files: 0,
  max_files: 0,
  max_size_bytes: null,
  content_types: [],
};

/** Runtime family that executes a capability (e.g. "node", "browser"). */
const Runtime = z.string().regex(/^[a-z0-9_-]{1,32}$/, 'must be 1-32 lowercase letters, digits, _ or -');
export const ExecutionMode = z.enum(['sync', 'async']);
export type ExecutionMode = z.infer<typeof ExecutionMode>;

/**
 * Execution block of a published capability. `machine_run_status` is the RAW published value and
 * may be legacy or unknown (spec §2.1), so it is any string here; `effective_status` is the
 * server's application of the §2.1 rules, and clients may re-derive it with effectiveRunStatus().
 */
export const CapabilityExecution = z.object({
  machine_run_status: z.string(),
  effective_status: EffectiveRunStatus,
  runtime: Runtime,
  mode: ExecutionMode,
});
export type CapabilityExecution = z.infer<typeof CapabilityExecution>;

/** The execution block as authored in a manifest: a known status value, nothing derived. */
export const ManifestExecution = z
  .object({
    machine_run_status: MachineRunStatus,
    runtime: Runtime,
    mode: ExecutionMode,
  })
  .strict();
export type ManifestExecution = z.infer<typeof ManifestExecution>;

/** Fields shared by the record, the summary and the manifest. */
const CapabilityIdentity = {
  slug: Slug,
  name: z.string().min(1).max(120),
  description: z.string().min(1).max(4000),
  category: Slug,
  tags: z.array(Slug).max(32),
};

/**
 * Whether `contentType` is one of `accepted` (a capability's `file_requirements.content_types`):
 * the same type, or a `type/*` entry of its top-level type (`image/*` takes `image/png`). Compared
 * in lower case (MIME types are case-insensitive); an empty list takes nothing. One rule for the
 * upload session (uploads service) and for the files a quote or run names (orchestrator).
 */
export function acceptsContentType(accepted: readonly string[], contentType: string): boolean {
  const type = contentType.toLowerCase();
  const slash = type.indexOf('/');
  const topLevel = slash > 0 ? type.slice(0, slash) : type;
  return accepted.some((entry) => {
    const wanted = entry.toLowerCase();
    return wanted === type || wanted === `${topLevel}/*`;
  });
}

/** Semantic version of a capability's contract, e.g. "1.0.0". */
const CapabilityVersion = z
  .string()
  .regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'must be a semantic version such as 1.0.0');

/** `capability` in the describe response (spec §4.2). */
export const CapabilityRecord = z.object({
  ...CapabilityIdentity,
  version: CapabilityVersion,
  pricing: Pricing,
  file_requirements: FileRequirements,
  execution: CapabilityExecution,
  updated_at: DateTime,
});
export type CapabilityRecord = z.infer<typeof CapabilityRecord>;

/** One item of the list/search response (spec §4.1). `relevance` is present when `q` was given. */
export const CapabilitySummary = z.object({
  ...CapabilityIdentity,
  pricing: Pricing,
  execution: CapabilityExecution,
  relevance: z.number().min(0).optional(),
});
export type CapabilitySummary = z.infer<typeof CapabilitySummary>;

/** Derives the published execution block from an authored one (spec §2.1 rules applied once). */
export function publishedExecution(execution: ManifestExecution): CapabilityExecution {
  return {
    machine_run_status: execution.machine_run_status,
    effective_status: effectiveRunStatus(execution.machine_run_status),
    runtime: execution.runtime,
    mode: execution.mode,
  };
}

export { CapabilityIdentity, CapabilityVersion };
