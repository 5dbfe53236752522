import { createHash } from 'node:crypto';
import type { RawRouteContext } from '../routing/route';

/**
 * GET of a public JSON document served as fixed bytes (no auth): a strong ETag lets clients and
 * proxies revalidate with If-None-Match (304, no body). `etag`: the entity tag without quotes
 * (default: the first 32 base64url characters of the bytes' SHA-256).
 */
export function jsonDocument(
  body: string,
  etag?: string,
): (input: unknown, context: RawRouteContext) => Promise<void> {
  const tag = `"${etag ?? createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  return async (_input, { req, res }) => {
    res.setHeader('ETag', tag);
    // Revalidate every time: the document changes with each deploy, and a 304 is cheap.
    res.setHeader('Cache-Control', 'no-cache');
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(body);
  };
}
