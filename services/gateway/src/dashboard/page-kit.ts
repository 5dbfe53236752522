import type { Request, Router } from 'express';
import type { VNode } from 'preact';
import type { GatewayHandler, GatewayResponse } from '../locals';
import type { DashboardDeps, SignedInAccount } from './ports';
import { describeFailure, PageError, redirectWithFlash, sendErrorPage, sendPage } from './render';
import { requestState } from './request-state';
import { type Permission, roleCan } from './roles';
import { CSRF_REFUSAL, csrfTokenMatches } from './security';
import type { NavKey } from './views/layout';

/**
 * The page API (issue 18). A page module is a function that adds its routes to the dashboard's
 * router; each route's handler is wrapped by `kit.page(permission, handler)`, which
 * - runs only for a signed-in session (the router redirects to sign-in before),
 * - checks the CSRF token of a multipart POST (urlencoded POSTs are checked by the router already),
 * - answers the 403 page when the role lacks `permission`,
 * - gives the handler a PageContext (account, csrf token, render, redirect),
 * - turns anything thrown into the error page (PageError's status and message; a service's 404 →
 *   the 404 page; 5xx → a generic page, the real error in the request log).
 * Ids of another client must end in `throw new PageError(404, …)` (or the service's NotFoundError),
 * never 403: no existence leak.
 */

export { PageError } from './render';
export type { Permission } from './roles';

export { CSRF_REFUSAL } from './security';

export interface RenderSpec {
  readonly title: string;
  readonly body: VNode;
  /** The highlighted navigation entry. */
  readonly active?: NavKey;
  /** Default 200 (422 for a form shown again with its errors). */
  readonly status?: number;
}

export interface PageContext {
  readonly req: Request;
  readonly res: GatewayResponse;
  readonly account: SignedInAccount;
  /** Pass to every <CsrfForm csrfToken={ctx.csrfToken}>. */
  readonly csrfToken: string;
  can(permission: Permission): boolean;
  /** Sends the page in the signed-in layout (with the pending flash, if any). */
  render(spec: RenderSpec): void;
  /** 303 to `path` (a /dashboard path), leaving `flash` for the next page. */
  redirect(path: string, flash?: string): void;
}

export type PageHandler = (ctx: PageContext) => Promise<void> | void;

export interface PageKit {
  readonly deps: DashboardDeps;
  page(permission: Permission, handler: PageHandler): GatewayHandler;
}

/** A page module: adds its routes (paths relative to /dashboard) with `kit.page(...)` handlers. */
export type PageModule = (router: Router, kit: PageKit) => void;

function contextOf(req: Request, res: GatewayResponse): PageContext {
  const session = requestState(req).session;
  if (session === undefined) throw new Error('dashboard page reached without a session');
  return {
    req,
    res,
    account: session.account,
    csrfToken: session.csrfToken,
    can: (permission) => roleCan(session.account.role, permission),
    render: (spec) => sendPage(req, res, spec),
    redirect: (path, flash) => redirectWithFlash(req, res, path, flash),
  };
}

export function createPageKit(deps: DashboardDeps): PageKit {
  return {
    deps,
    page: (permission, handler) => async (req, res) => {
      try {
        const state = requestState(req);
        if (state.csrfPending === true) {
          const body: unknown = req.body;
          const presented =
            typeof body === 'object' && body !== null ? Reflect.get(body, '_csrf') : undefined;
          if (state.session === undefined || !csrfTokenMatches(state.session.token, presented)) {
            throw new PageError(403, CSRF_REFUSAL);
          }
          state.csrfPending = false;
        }
        const ctx = contextOf(req, res);
        if (!ctx.can(permission)) {
          throw new PageError(403, 'Your role does not include this page. Ask an owner of your account.');
        }
        await handler(ctx);
      } catch (err) {
        if (res.headersSent) {
          res.locals.failure = err instanceof Error ? err : new Error(String(err));
          res.destroy();
          return;
        }
        const { status, message } = describeFailure(err, res);
        sendErrorPage(req, res, status, message);
      }
    },
  };
}
