import { z } from 'zod';
import type { ApiOperation } from './operation';

/**
 * What an operation's declaration says about its requests and answers, as types: the gateway's
 * route handlers (services/gateway/src/routing) and the MCP tools (mcp-tools.ts) infer their input
 * and their answers from the operation they serve, so neither restates a shape.
 */

/**
 * Declares one operation keeping its exact type: the literal method, path and operationId, and its
 * own zod schemas (an `ApiOperation` annotation would widen them to `z.ZodType`).
 */
export function defineOperation<const Op extends ApiOperation>(operation: Op): Op {
  return operation;
}

/**
 * The query of an operation that `refusesQuery` (it takes none, like spec §4.14's spend diagnostics
 * and the vault's reads): strict, so a parameter sent anyway is a 422 naming it rather than silently
 * ignored (docs/decisions.md D2).
 */
export const NoQuery = z.object({}).strict();

/** Where a request parameter travels (OpenAPI `in`). */
type ParameterLocation = 'path' | 'query' | 'header';

/** The schema of one parameter location of `Op`, or undefined when it declares none there. */
export type ParameterSchema<Op, L extends ParameterLocation> = Op extends {
  readonly params: { readonly [K in L]: infer S extends z.core.$ZodType };
}
  ? S
  : undefined;

type ParsedOrUndefined<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

/** `{slug}` of `/api/capabilities/{slug}/quote`, parsed. */
export type OperationPathParams<Op> = ParsedOrUndefined<ParameterSchema<Op, 'path'>>;
export type OperationQuery<Op> = ParsedOrUndefined<ParameterSchema<Op, 'query'>>;
export type OperationHeaders<Op> = ParsedOrUndefined<ParameterSchema<Op, 'header'>>;

/** The JSON body's schema, or undefined for an operation without one (or with raw bytes). */
export type BodySchema<Op> = Op extends { readonly body: { readonly schema: infer S extends z.ZodType } }
  ? S
  : undefined;
export type OperationBody<Op> = ParsedOrUndefined<BodySchema<Op>>;

/** One JSON answer: a status the operation declares and the body its schema describes. */
type JsonAnswerOf<Status, Response> = Response extends { readonly schema: infer S extends z.ZodType }
  ? {
      readonly status: Status;
      readonly body: z.output<S>;
      /** Headers to set besides the ones the gateway sets itself (Location, Cache-Control, …). */
      readonly headers?: Readonly<Record<string, string>>;
    }
  : never;

type OtherAnswers<Op> = Op extends { readonly otherResponses: infer Others }
  ? { [Status in keyof Others]: JsonAnswerOf<Status, Others[Status]> }[keyof Others]
  : never;

/**
 * Every JSON answer the operation declares besides its errors: the success, and each of
 * `otherResponses` (a second 2xx, or /readyz's 503 report). A binary success has none: its handler
 * writes the bytes itself.
 */
export type OperationAnswer<Op extends ApiOperation> =
  | JsonAnswerOf<Op['success']['status'], Op['success']>
  | OtherAnswers<Op>;

/**
 * The path of one resource of `operation`, its template filled in (`/api/capability-runs/<id>`):
 * the `Location` of an answer and the links the gateway hands out name the operation that serves
 * them rather than a path written a second time. Each value is percent-encoded as a path segment.
 */
export function operationPath<Op extends Pick<ApiOperation, 'path'>>(
  operation: Op,
  params: Readonly<Record<string, string>>,
): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_template, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
