import { BadRequestError } from '@svc/errors';
import type { Request } from 'express';

/** Where a request says it was sent: the protocol and `host[:port]` express derived for it. */
type RequestOrigin = Pick<Request, 'protocol' | 'host'>;

// A host name, IPv4 or bracketed IPv6 address, with an optional port: nothing that could add a
// path, credentials or a second host to a link built from it.
const SAFE_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The base of every link the gateway hands out (`upload_url`, artifact `download_url`s), in one
 * place: PUBLIC_BASE_URL when the operator set it (already without a trailing slash, env.ts),
 * otherwise the request's own origin. express derives that from the connection and the Host header,
 * and from X-Forwarded-Proto / X-Forwarded-Host only when TRUST_PROXY trusts the hop that sent
 * them, so a client cannot point the links elsewhere through a proxy we do not trust. A host that
 * could not be part of a URL is 400: the links would be broken.
 */
export function createPublicBaseUrl(configured: string | undefined): (req: RequestOrigin) => string {
  if (configured !== undefined) return () => configured;
  return (req) => {
    const { protocol, host } = req;
    if ((protocol !== 'http' && protocol !== 'https') || host === undefined || !SAFE_HOST.test(host)) {
      throw new BadRequestError(
        'cannot build links for this request: its Host (or forwarded host/protocol) is not a valid origin',
      );
    }
    return `${protocol}://${host}`;
  };
}
