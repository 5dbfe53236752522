import { MethodNotAllowedError } from '@svc/errors';
import type { Router } from 'express';
import type { GatewayHandler } from '../locals';
import { echoPath } from './not-found';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

/** The handler chain per method of one path; a chain is usually [requireAuth(...), handler]. */
export type MethodHandlers = Partial<Record<Method, readonly GatewayHandler[]>>;

/**
 * Declares one path of a router with its methods. The path then answers:
 * - a declared method: its chain (GET also serves HEAD, as express does);
 * - OPTIONS: 204 with `Allow`;
 * - any other method: 405 ErrorResponse with `Allow` (RFC 9110 §15.5.6), not a misleading 404.
 * The first handler records the route template on res.locals for the request metrics.
 */
export function defineRoute(router: Router, path: string, handlers: MethodHandlers): void {
  const route = router.route(path);
  const methods = METHODS.filter((m) => (handlers[m]?.length ?? 0) > 0);
  const allowed = methods.map((m) => m.toUpperCase());
  if (allowed.includes('GET')) allowed.push('HEAD');
  allowed.push('OPTIONS');
  const allowHeader = allowed.join(', ');

  const recordTemplate: GatewayHandler = (req, res, next) => {
    // `/` of a router mounted at /api/capabilities is reported as /api/capabilities.
    res.locals.routeTemplate = path === '/' && req.baseUrl !== '' ? req.baseUrl : `${req.baseUrl}${path}`;
    next();
  };
  route.all(recordTemplate);
  for (const method of methods) {
    route[method](...(handlers[method] ?? []));
  }
  route.options((_req, res) => {
    res.setHeader('Allow', allowHeader);
    res.status(204).end();
  });
  route.all((req, res, next) => {
    res.setHeader('Allow', allowHeader);
    next(
      new MethodNotAllowedError(
        `method ${req.method} not allowed on ${echoPath(req)} (allow: ${allowHeader})`,
      ),
    );
  });
}
