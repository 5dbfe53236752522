import type { GatewayHandler } from '../locals';

/**
 * `Cache-Control: no-store` on every answer of a route, errors included (401/403 from the auth
 * check that follows, 404 for a run of another client, 402 from the wallet): runs, quotes and
 * account figures are private to one client and change from one request to the next. First in
 * the route's chain, so nothing can answer before it is set.
 */
export const noStore: GatewayHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
