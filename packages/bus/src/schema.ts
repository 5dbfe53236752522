import type { z } from 'zod';

/**
 * `schema.safeParse(value)` typed by the schema's own type parameter. Generic catalog code calls it
 * with an explicit type argument (`safeParseWith<Methods[M]['request']>(…)`): a plain method call on
 * a generic indexed type would widen the result to `unknown`.
 */
export function safeParseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
): z.ZodSafeParseResult<z.output<T>> {
  return schema.safeParse(value);
}
