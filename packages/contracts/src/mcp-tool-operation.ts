import { z } from 'zod';
import type { Scope } from './common';
import type { ApiOperationId } from './openapi/document';
import type { ApiOperation } from './openapi/operation';
import { isRateLimitBudget, type RateLimitBudget, rateLimitClassOf } from './openapi/rate-limits';

/**
 * What an MCP tool takes from the REST operation it wraps (its "REST twin", decisions M2, M4), so
 * that a tool never restates what the operation declares: its scope, the schema of its arguments
 * (the operation's body and path parameters, or its query), the schema of its result (the
 * operation's success body) and its rate-limit budget.
 */
export interface OperationFacts<I extends z.ZodObject, O extends z.ZodObject> {
  /** The operationId of the REST twin. */
  readonly operation: ApiOperationId;
  /**
   * The REST twin's scope. A public twin (search, describe) asks for `capabilities:read`: every MCP
   * call carries a key (decisions M2), and reading the catalog is what that scope names.
   */
  readonly scope: Scope;
  readonly input: I;
  readonly output: O;
  /** The budget a call spends from: its REST twin's (README "Rate limits"). */
  readonly budget: RateLimitBudget;
}

type Shape = z.core.$ZodShape;
type Config = z.core.$ZodObjectConfig;
/** The tool's own arguments: descriptions for the agent over the operation's fields, or new ones. */
type ToolArgs = z.core.$ZodLooseShape;
/** `schema.extend(more)`, as zod types it. */
type Extended<S extends Shape, C extends Config, More> = z.ZodObject<
  z.core.util.Extend<S, z.core.util.Writeable<More>>,
  C
>;

/** The arguments of a tool whose operation takes none: a strict empty object (one given is named). */
const noArguments = () => z.strictObject({});

/** The fields of an operation every wrapped one has; the overloads below add what they read. */
interface Wrapped<Id extends ApiOperationId, O extends z.ZodObject>
  extends Pick<ApiOperation, 'method' | 'path' | 'auth' | 'rateLimit'> {
  readonly operationId: Id;
  readonly success: { readonly schema: O };
}

/** What the derivation reads of an operation. */
type ToolOperation = Pick<ApiOperation, 'method' | 'path' | 'auth' | 'rateLimit' | 'body' | 'params'> & {
  readonly operationId: ApiOperationId;
  readonly success: { readonly schema?: unknown };
};

/** The scope a tool checks (see OperationFacts.scope). */
function toolScope(op: ToolOperation): Scope {
  if (op.auth.kind === 'public') return 'capabilities:read';
  const [scope, ...more] = op.auth.kind === 'key' ? op.auth.scopes : [];
  if (scope === undefined || more.length > 0) {
    throw new Error(`${op.operationId}: an MCP tool wraps a public operation or one with exactly one scope`);
  }
  return scope;
}

function toolBudget(op: ToolOperation): RateLimitBudget {
  const limit = rateLimitClassOf(op);
  if (!isRateLimitBudget(limit))
    throw new Error(`${op.operationId}: an MCP tool needs a budget, not ${limit}`);
  return limit;
}

/** A zod object schema of the operation, or undefined; anything else cannot be a tool's arguments. */
function objectSchema(op: ToolOperation, schema: unknown): z.ZodObject | undefined {
  if (schema === undefined) return undefined;
  if (schema instanceof z.ZodObject) return schema;
  throw new Error(`${op.operationId}: an MCP tool's arguments come from object schemas only`);
}

/**
 * The arguments: the body's fields, then the path parameters' (`slug`, `run_id`), or when there is
 * no body the path parameters or else the query as they are, or none (a strict empty object: an
 * argument given anyway is named in the refusal). Then `args`, which replace a field in its place
 * (the same schema with a description for the agent) or add one (`idempotency_key`, the header).
 */
function toolInput(op: ToolOperation, args: ToolArgs | undefined): z.ZodObject {
  const body = op.body !== undefined && 'schema' in op.body ? objectSchema(op, op.body.schema) : undefined;
  const path = objectSchema(op, op.params?.path);
  const query = objectSchema(op, op.params?.query);
  let input = body ?? path ?? query ?? noArguments();
  for (const part of [path, query]) {
    if (part !== undefined && part !== input) input = input.extend(part.shape);
  }
  return args === undefined ? input : input.extend(args);
}

/** A body and path parameters (quote, run, upload session): the body's fields, the path's, `args`. */
export function wrapsOperation<
  Id extends ApiOperationId,
  O extends z.ZodObject,
  BS extends Shape,
  BC extends Config,
  PS extends Shape,
  A extends ToolArgs,
>(
  op: Wrapped<Id, O> & {
    readonly body: { readonly schema: z.ZodObject<BS, BC> };
    readonly params: { readonly path: z.ZodObject<PS> };
  },
  args: A,
): OperationFacts<Extended<z.core.util.Extend<BS, z.core.util.Writeable<PS>>, BC, A>, O>;
/** Path parameters only, with descriptions for the agent (describe). */
export function wrapsOperation<
  Id extends ApiOperationId,
  O extends z.ZodObject,
  PS extends Shape,
  PC extends Config,
  A extends ToolArgs,
>(
  op: Wrapped<Id, O> & { readonly params: { readonly path: z.ZodObject<PS, PC> } },
  args: A,
): OperationFacts<Extended<PS, PC, A>, O>;
/** Path parameters only, as they are (status, cancel, artifacts). */
export function wrapsOperation<Id extends ApiOperationId, O extends z.ZodObject, P extends z.ZodObject>(
  op: Wrapped<Id, O> & { readonly params: { readonly path: P } },
): OperationFacts<P, O>;
/** The query only, as it is (search). */
export function wrapsOperation<Id extends ApiOperationId, O extends z.ZodObject, Q extends z.ZodObject>(
  op: Wrapped<Id, O> & { readonly params: { readonly query: Q } },
): OperationFacts<Q, O>;
/** No parameters and no body (balance): no arguments. */
export function wrapsOperation<Id extends ApiOperationId, O extends z.ZodObject>(
  op: Wrapped<Id, O>,
): OperationFacts<ReturnType<typeof noArguments>, O>;
export function wrapsOperation(op: ToolOperation, args?: ToolArgs): OperationFacts<z.ZodObject, z.ZodObject> {
  const output = objectSchema(op, op.success.schema);
  if (output === undefined)
    throw new Error(`${op.operationId}: an MCP tool answers the JSON body of its twin`);
  return {
    operation: op.operationId,
    scope: toolScope(op),
    input: toolInput(op, args),
    output,
    budget: toolBudget(op),
  };
}
