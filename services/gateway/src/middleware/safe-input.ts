import { assertSafeJson, unsafeTextReason, ValidationError } from '@svc/errors';
import type { GatewayHandler } from '../locals';

/**
 * The gateway's one gate for what a client sends (issue 13 findings 2 and 3), with the shared check
 * of @svc/errors (safe-json.ts) that the MCP tools use too (mcp/tool-kit.ts):
 * - safeRequestTarget, app-wide before every router: the decoded path, the query and the headers;
 * - safeJsonBody, the last step of RouteKit.jsonBody: the body once parsed.
 * Either answers 422 naming the field before any route logic or service call, so no NUL, unpaired
 * surrogate, non-finite number or too deep or too large value reaches PostgreSQL, an RPC or a hash.
 */

/**
 * The path as the router decodes it for path parameters (`%00` is a NUL). A path that does not
 * decode is left to the router, which answers 400 "malformed percent-encoding" (errors.ts).
 */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * Path, query and headers. Node's HTTP parser already refuses NUL and other control characters in
 * header values (400, listen-http's clientError answer), and a URL cannot carry a lone surrogate
 * (it does not decode as UTF-8); both are checked anyway, cheaply, so the guarantee does not depend
 * on a parser's or query parser's version.
 */
export const safeRequestTarget: GatewayHandler = (req, _res, next) => {
  const path = decodedPath(req.path);
  const reason = path === undefined ? undefined : unsafeTextReason(path);
  // The path is named, not quoted: echoing a NUL back is what this guards against.
  if (reason !== undefined) throw new ValidationError(`path: ${reason}`);
  assertSafeJson(req.query, { prefix: 'query', root: 'query' });
  assertSafeJson(req.headers, { prefix: 'headers', root: 'headers' });
  next();
};

/**
 * The parsed JSON body, named as the contracts name it (`input.text`, no prefix, as parseRequest
 * does for bodies). Runs after express.json(): a request without a JSON body has `req.body`
 * undefined, which passes.
 */
export const safeJsonBody: GatewayHandler = (req, _res, next) => {
  assertSafeJson(req.body, { root: 'body' });
  next();
};
