import {
  type ApiOperation,
  apiOperation,
  MCP_TOOL_BUDGETS,
  MCP_TOOL_DESCRIPTORS,
  rateLimitClassOf,
} from '@svc/contracts';
import { z } from 'zod';

/**
 * Each MCP tool names the REST operation it wraps (its twin, decisions M2, M4) and takes from it
 * what the operation declares: the scope, the result schema, the budget, and the arguments (the
 * body's and path's fields, or the query's), so a change to the operation is a change to the tool.
 */

const fieldsOf = (schema: unknown): Record<string, unknown> =>
  schema instanceof z.ZodObject ? schema.shape : {};

/** A schema's JSON Schema without its words for people (`description`, at every depth). */
function shapeOf(schema: unknown): unknown {
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([key]) => key !== 'description')
              .map(([key, inner]) => [key, strip(inner)]),
          )
        : value;
  return strip(z.toJSONSchema(schema as z.ZodType, { io: 'input' }));
}

describe.each(MCP_TOOL_DESCRIPTORS.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
  const op: ApiOperation = apiOperation(tool.operation);

  it('answers the success body of its operation', () => {
    expect('schema' in op.success ? op.success.schema : undefined).toBe(tool.output);
  });

  it("checks its operation's scope (capabilities:read for a public one)", () => {
    expect(tool.scope).toBe(op.auth.kind === 'key' ? op.auth.scopes[0] : 'capabilities:read');
  });

  it("spends from its operation's budget", () => {
    expect(tool.budget).toBe(rateLimitClassOf(op));
    expect(MCP_TOOL_BUDGETS[tool.name]).toBe(tool.budget);
  });

  it("takes every field of its operation's body and path (or query), described or as they are", () => {
    const body = op.body !== undefined && 'schema' in op.body ? fieldsOf(op.body.schema) : {};
    const declared = {
      ...body,
      ...fieldsOf(op.params?.path),
      ...(op.body ? {} : fieldsOf(op.params?.query)),
    };
    const args = tool.input.shape;
    for (const [name, schema] of Object.entries(declared)) {
      expect({ name, taken: name in args }).toEqual({ name, taken: true });
      // The same schema, or the same one with descriptions for the agent.
      expect({ name, argument: shapeOf(args[name]) }).toEqual({ name, argument: shapeOf(schema) });
    }
  });
});
