import type { EdgeResponse } from '@svc/http-kit';
import type { Request, Router } from 'express';
import type { VNode } from 'preact';
import type { DashboardDeps, SignedInAccount } from './ports';
import { describeFailure, PageError, redirectWithFlash, sendErrorPage, sendPage } from './render';
import { type DashboardSession, requestState } from './request-state';
import { type Access, roleCan } from './roles';
import { CSRF_REFUSAL, csrfTokenMatches, originAllowed, presentedCsrfToken } from './security';
import type { NavKey } from './views/layout';

/**
 * The page API (issue 18; issue 23 items 4 and 14). A page module is a function that declares its
 * routes on the kit; it never sees the express router, so every route gets the same checks:
 * - `kit.get(path, access, handler)`: a page, for a signed-in session (the router redirects to
 *   sign-in before) whose role has `access`, else the 403 page;
 * - `kit.post(path, access, handler, { multipart })`: a form action, the one place the CSRF check
 *   lives. Origin (when sent) must be ours, the role must have `access` (before a multipart body is
 *   read: no bytes from a role without it), then the session's token must come in the
 *   `X-CSRF-Token` header or the parsed body's `_csrf`, whatever the body type: a body the route does
 *   not parse (JSON, text, multipart on a urlencoded route) has no `_csrf`, so it is refused;
 * - a form action answers with a redirect (POST-redirect-GET): `ctx.redirect(...)`, with what the next
 *   page must show in the flash cookie or, when secret, in a one-time note (`ctx.keepNote`). `render`
 *   in a form action is only for a refusal (status 400 and up, e.g. the form again with its errors);
 *   a success rendered in place is a programming error (500), since a reload would repeat the action;
 * - anything thrown becomes the error page (PageError's status and message; a service's 404 → the
 *   404 page; 5xx → a generic page, the real error in the request log).
 * Ids of another client must end in `throw new PageError(404, …)` (or the service's NotFoundError),
 * never 403: no existence leak.
 */

export { PageError } from './render';
export type { Access, Permission } from './roles';
export { SIGNED_IN } from './roles';

export { CSRF_REFUSAL } from './security';

/** The 403 page of a route the role does not include. */
export const ROLE_REFUSAL = 'Your role does not include this page. Ask an owner of your account.';

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
  readonly res: EdgeResponse;
  readonly account: SignedInAccount;
  /** Pass to every <CsrfForm csrfToken={ctx.csrfToken}>. */
  readonly csrfToken: string;
  can(access: Access): boolean;
  /** Sends the page in the signed-in layout (with the pending flash, if any). */
  render(spec: RenderSpec): void;
  /** 303 to `path` (a /dashboard path), leaving `flash` for the next page. */
  redirect(path: string, flash?: string): void;
  /** Seals `value` (JSON) beside this session for the page a redirect leads to: the note's id. */
  keepNote(value: unknown): Promise<string>;
  /** A note of this session, the first time only (null after, or when it is not this session's). */
  takeNote(noteId: string): Promise<unknown>;
}

export type PageHandler = (ctx: PageContext) => Promise<void> | void;

/** A route's multipart parser (multer): fills req.body and req.file, or throws a PageError (413, 400). */
export type MultipartBody = (req: Request, res: EdgeResponse) => Promise<void>;

export interface ActionOptions {
  /** The form is multipart (a file upload): its body is read with this, after the role check. */
  readonly multipart?: MultipartBody;
}

export interface PageKit {
  readonly deps: DashboardDeps;
  /** A page: GET `path` (relative to /dashboard). */
  get(path: string, access: Access, handler: PageHandler): void;
  /** A form action: POST `path` (relative to /dashboard), CSRF-checked whatever its body. */
  post(path: string, access: Access, handler: PageHandler, options?: ActionOptions): void;
}

/** A page module: declares its routes (paths relative to /dashboard) with `kit.get` and `kit.post`. */
export type PageModule = (kit: PageKit) => void;

function sessionOf(req: Request): DashboardSession {
  const session = requestState(req).session;
  if (session === undefined) throw new Error('dashboard page reached without a session');
  return session;
}

function contextOf(
  deps: DashboardDeps,
  req: Request,
  res: EdgeResponse,
  session: DashboardSession,
  action: boolean,
): PageContext {
  return {
    req,
    res,
    account: session.account,
    csrfToken: session.csrfToken,
    can: (access) => roleCan(session.account.role, access),
    render: (spec) => {
      if (action && (spec.status ?? 200) < 400) {
        throw new Error('a form action answers a success with a redirect (POST-redirect-GET), not a page');
      }
      sendPage(req, res, spec);
    },
    redirect: (path, flash) => redirectWithFlash(req, res, path, flash),
    keepNote: (value) => deps.oneTimeNotes.keep(session.token, value),
    takeNote: (noteId) => deps.oneTimeNotes.take(session.token, noteId),
  };
}

/** The CSRF gate of every form action (see above); throws the 403 PageError it refuses with. */
async function checkAction(
  deps: DashboardDeps,
  ctx: PageContext,
  session: DashboardSession,
  access: Access,
  options: ActionOptions,
): Promise<void> {
  const { req, res } = ctx;
  if (!originAllowed(req, deps.publicBaseUrl)) throw new PageError(403, CSRF_REFUSAL);
  if (!ctx.can(access)) throw new PageError(403, ROLE_REFUSAL);
  if (options.multipart !== undefined && req.is('multipart/form-data')) await options.multipart(req, res);
  if (!csrfTokenMatches(session.token, presentedCsrfToken(req))) throw new PageError(403, CSRF_REFUSAL);
}

function failed(req: Request, res: EdgeResponse, err: unknown): void {
  if (res.headersSent) {
    res.locals.failure = err instanceof Error ? err : new Error(String(err));
    res.destroy();
    return;
  }
  const { status, message } = describeFailure(err, res);
  sendErrorPage(req, res, status, message);
}

export function createPageKit(router: Router, deps: DashboardDeps): PageKit {
  return {
    deps,
    get: (path, access, handler) => {
      router.get(path, async (req, res: EdgeResponse) => {
        try {
          const ctx = contextOf(deps, req, res, sessionOf(req), false);
          if (!ctx.can(access)) throw new PageError(403, ROLE_REFUSAL);
          await handler(ctx);
        } catch (err) {
          failed(req, res, err);
        }
      });
    },
    post: (path, access, handler, options = {}) => {
      router.post(path, async (req, res: EdgeResponse) => {
        try {
          const session = sessionOf(req);
          const ctx = contextOf(deps, req, res, session, true);
          await checkAction(deps, ctx, session, access, options);
          await handler(ctx);
        } catch (err) {
          failed(req, res, err);
        }
      });
    },
  };
}
