/**
 * Bounds every JSON value a client sends (REST bodies, MCP tool arguments) is held to before any
 * route or service sees it (docs/decisions.md "safe input"; issue 13 findings 2 and 3). They protect
 * the platform, not the capabilities: each capability's own limits (maxLength, maxItems) are in its
 * describe `input_schema` and are far below these.
 */
export interface JsonInputLimits {
  /**
   * Arrays and objects nested inside each other, the outermost counting as 1. JSON.stringify, BullMQ's
   * job encoding and safe-stable-stringify recurse and overflow the stack between about 3,000 and
   * 5,000 levels; no contract nests more than 5.
   */
  readonly maxDepth: number;
  /**
   * Values in one document: every string, number, boolean, null, array and object, and every
   * property name. A 1 MB body of `[0,0,…]` holds ~500,000; the largest capability input (a batch
   * of 500 entries) about 1,000.
   */
  readonly maxNodes: number;
}

export const JSON_INPUT_LIMITS: JsonInputLimits = { maxDepth: 64, maxNodes: 100_000 };

/** The same rules in a sentence for API readers (OpenAPI `info.description`). */
export const JSON_INPUT_RULES_MARKDOWN =
  'Every JSON body, MCP tool argument, query parameter, path and header is checked before anything ' +
  'else: text must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates, numbers must be ' +
  `finite, arrays and objects nest at most ${JSON_INPUT_LIMITS.maxDepth} levels deep, and one body holds ` +
  `at most ${JSON_INPUT_LIMITS.maxNodes.toLocaleString('en-US')} values (items, properties and their ` +
  'names). A request that breaks one of these gets 422 naming the field, e.g. ' +
  '`input.text: must not contain NUL characters`.';
