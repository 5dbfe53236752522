import { z } from 'zod';

/**
 * `schema.safeParse(value)` typed by the schema's own type parameter. Generic catalog code calls it
 * with an explicit type argument (`safeParseWith<Methods[M]['request']>(…)`): a plain method call on
 * a generic indexed type would widen the result to `unknown`. `T` is unconstrained on purpose: an
 * indexed union of different schemas (`JobCatalog[N]['payload']`) does not satisfy a `ZodType`
 * constraint in TypeScript's eyes (variance of its `~standard` member), although every member does.
 */
export function safeParseWith<T>(
  schema: T & z.core.$ZodType,
  value: unknown,
): z.ZodSafeParseResult<z.output<T>> {
  return z.safeParse(schema, value);
}
