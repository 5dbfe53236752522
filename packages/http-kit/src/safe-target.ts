import { assertSafeJson, unsafeTextReason, ValidationError } from '@svc/errors';
import type { EdgeHandler } from './locals';

/**
 * A web process's gate for what a client's request line and headers carry (issue 13 findings 2
 * and 3), with the shared check of @svc/errors (safe-json.ts): the decoded path, the query and the
 * headers. Answers 422 naming the field before any route logic or service call, so no NUL, unpaired
 * surrogate or too deep or too large value reaches PostgreSQL, an RPC or a hash.
 */

/**
 * The path as the router decodes it for path parameters (`%00` is a NUL). A path that does not
 * decode is left to the router, which answers 400 "malformed percent-encoding".
 */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * Path, query and headers, app-wide before every router. Node's HTTP parser already refuses NUL
 * and other control characters in header values (400, listen-http's clientError answer), and a URL
 * cannot carry a lone surrogate (it does not decode as UTF-8); both are checked anyway, cheaply, so
 * the guarantee does not depend on a parser's or query parser's version.
 */
export const safeRequestTarget: EdgeHandler = (req, _res, next) => {
  const path = decodedPath(req.path);
  const reason = path === undefined ? undefined : unsafeTextReason(path);
  // The path is named, not quoted: echoing a NUL back is what this guards against.
  if (reason !== undefined) throw new ValidationError(`path: ${reason}`);
  assertSafeJson(req.query, { prefix: 'query', root: 'query' });
  assertSafeJson(req.headers, { prefix: 'headers', root: 'headers' });
  next();
};
