import { assertSafeJson } from '@svc/errors';
import type { GatewayHandler } from '../locals';

/**
 * The gateway's one gate for what a client sends (issue 13 findings 2 and 3), with the shared check
 * of @svc/errors (safe-json.ts) that the MCP tools use too (mcp/tool-kit.ts):
 * - safeRequestTarget, app-wide before every router: the decoded path, the query and the headers;
 * - safeJsonBody, the last step of RouteKit.jsonBody: the body once parsed.
 * Either answers 422 naming the field before any route logic or service call, so no NUL, unpaired
 * surrogate, non-finite number or too deep or too large value reaches PostgreSQL, an RPC or a hash.
 */

// Path, query and headers: the check every web process makes (@svc/http-kit, the dashboard too).
export { safeRequestTarget } from '@svc/http-kit';

/**
 * The parsed JSON body, named as the contracts name it (`input.text`, no prefix, as parseRequest
 * does for bodies). Runs after express.json(): a request without a JSON body has `req.body`
 * undefined, which passes.
 */
export const safeJsonBody: GatewayHandler = (req, _res, next) => {
  assertSafeJson(req.body, { root: 'body' });
  next();
};
