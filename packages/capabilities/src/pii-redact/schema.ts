import { z } from 'zod';

/** Kinds of personal data pii-redact finds (docs/decisions.md K1). */
export const PII_TYPES = ['email', 'phone', 'iban', 'card'] as const;
export const PiiType = z.enum(PII_TYPES);
export type PiiType = z.infer<typeof PiiType>;

/** Longest text one run takes, in characters (Unicode code points): 200,000 ≈ 100 pages. */
export const PII_MAX_CHARACTERS = 200_000;

/** Input of `pii-redact`. */
export const PiiRedactInput = z
  .object({
    text: z
      .string()
      .min(1)
      .refine((text) => characterCount(text) <= PII_MAX_CHARACTERS, {
        message: `must be at most ${PII_MAX_CHARACTERS} characters`,
      })
      // JSON Schema's maxLength counts characters as code points (RFC 8259), as the check above does.
      .meta({
        maxLength: PII_MAX_CHARACTERS,
        description: 'The text to redact (plain text, up to 200,000 characters).',
      }),
    types: z
      .array(PiiType)
      .min(1)
      .max(PII_TYPES.length)
      .default([...PII_TYPES])
      .refine((types) => new Set(types).size === types.length, { message: 'must not repeat a type' })
      .meta({
        uniqueItems: true,
        description: 'Kinds of data to redact; default all: email, phone, iban, card.',
      }),
    style: z
      .enum(['label', 'mask'])
      .default('label')
      .describe(
        '`label` replaces each finding with [EMAIL], [PHONE], [IBAN] or [CARD]; `mask` with * of the same length.',
      ),
  })
  .strict();
export type PiiRedactInput = z.infer<typeof PiiRedactInput>;

/** One redacted span, in code-point offsets of the input text. The original value is never returned. */
export const PiiFinding = z
  .object({
    type: PiiType,
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    replacement: z.string(),
  })
  .strict();
export type PiiFinding = z.infer<typeof PiiFinding>;

/** Result of `pii-redact`. */
export const PiiRedactResult = z
  .object({
    redacted_text: z.string(),
    findings: z.array(PiiFinding),
    counts: z
      .object({
        email: z.number().int(),
        phone: z.number().int(),
        iban: z.number().int(),
        card: z.number().int(),
      })
      .strict(),
    characters: z.number().int().min(0),
  })
  .strict();
export type PiiRedactResult = z.infer<typeof PiiRedactResult>;

/** Characters as priced and limited: Unicode code points (an emoji is one, not two UTF-16 units). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
