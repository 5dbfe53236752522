import { z } from 'zod';
import { CapabilityRecord, CapabilitySummary } from './capability';
import { Slug } from './common';

/** Spec §4.1 list/search page size. */
export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;

/**
 * Query string of GET /api/capabilities (spec §4.1; the category parameter's name, not shown by
 * the spec, is `category`). Query values arrive as strings, so `limit` is coerced. Strict: an
 * unknown parameter (a typo such as `catgory`) is rejected instead of silently listing everything.
 */
export const ListCapabilitiesQuery = z
  .object({
    q: z.string().trim().min(1).max(200).optional().describe('Natural-language search text.'),
    category: Slug.optional().describe('Only capabilities of this category.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(LIST_MAX_LIMIT)
      .default(LIST_DEFAULT_LIMIT)
      .describe('Maximum number of capabilities returned (1 to 100).'),
  })
  .strict();
export type ListCapabilitiesQuery = z.infer<typeof ListCapabilitiesQuery>;

/** 200 body of GET /api/capabilities: the matches, best first when `q` was given. */
export const ListCapabilitiesResponse = z.object({
  ok: z.literal(true),
  capabilities: z.array(CapabilitySummary),
  count: z.number().int().min(0),
  // The query as applied (after trimming and defaults), so a client sees what it got.
  query: z.object({
    q: z.string().nullable(),
    category: z.string().nullable(),
    limit: z.number().int().min(1).max(LIST_MAX_LIMIT),
  }),
});
export type ListCapabilitiesResponse = z.infer<typeof ListCapabilitiesResponse>;

/** Path parameters of GET /api/capabilities/{slug}. */
export const CapabilitySlugParams = z.object({ slug: Slug }).strict();
export type CapabilitySlugParams = z.infer<typeof CapabilitySlugParams>;

/** A JSON Schema document (draft 2020-12) as carried on the wire. */
export const JsonSchemaObject = z.record(z.string(), z.unknown());
export type JsonSchemaObject = z.infer<typeof JsonSchemaObject>;

/**
 * 200 body of GET /api/capabilities/{slug} (spec §4.2): the record and the JSON Schema of the
 * `input` object that quote and run accept (spec §2.1: the source of truth for input fields).
 */
export const DescribeCapabilityResponse = z.object({
  ok: z.literal(true),
  capability: CapabilityRecord,
  input_schema: JsonSchemaObject,
});
export type DescribeCapabilityResponse = z.infer<typeof DescribeCapabilityResponse>;
