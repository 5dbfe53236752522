import { CapabilitySlugParams, ClientType } from '@svc/contracts';

/**
 * Descriptions the contracts do not carry, added to their own schemas (never a field restated):
 * every tool argument an agent sees has a `description`.
 */
export const SlugArg = CapabilitySlugParams.shape.slug.describe(
  'Capability slug (e.g. "crt", "pii-redact"), as listed by svc_capabilities_search.',
);

export const ClientTypeArg = ClientType.default('api').describe(
  'Who is calling, for the run record (2-24 characters of A-Z a-z 0-9 _ -); default "api".',
);

/** Tools that only read: the same call gives the same answer and changes nothing (decisions M6). */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** "1 capability", "3 capabilities": counts in the one-line summaries. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
