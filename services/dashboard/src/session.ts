import type { EdgeHandler } from '@svc/http-kit';
import type { Request, Response } from 'express';
import type { DashboardDeps } from './ports';
import { redirectWithFlash } from './render';
import { requestState } from './request-state';
import { cookieNames, cookieOptions, csrfTokenFor } from './security';

/** The session cookie's value from cookie-parser (absent, or not a string: no session). */
export function sessionTokenOf(req: Request): string | undefined {
  const cookies: unknown = req.cookies;
  if (typeof cookies !== 'object' || cookies === null) return undefined;
  const token: unknown = Reflect.get(cookies, cookieNames(req).session);
  return typeof token === 'string' && token.length > 0 && token.length <= 200 ? token : undefined;
}

/** Reads the previous action's notice into the request state (page rendering clears it). */
export const readFlash: EdgeHandler = (req, _res, next) => {
  const cookies: unknown = req.cookies;
  const flash: unknown =
    typeof cookies === 'object' && cookies !== null
      ? Reflect.get(cookies, cookieNames(req).flash)
      : undefined;
  if (typeof flash === 'string' && flash.length > 0) requestState(req).flash = flash.slice(0, 300);
  next();
};

/** To the sign-in page, coming back to this page (a GET) afterwards. */
function toSignIn(req: Request, res: Response, note: string | undefined): void {
  const back = req.method === 'GET' ? `?next=${encodeURIComponent(req.originalUrl)}` : '';
  redirectWithFlash(req, res, `/dashboard/sign-in${back}`, note);
}

/**
 * Every page past sign-in: the cookie's session, looked up (absolute and idle expiry applied by the
 * store), else a redirect to sign-in, with a note when a session cookie was there but is over.
 */
export function requireSession(deps: DashboardDeps): EdgeHandler {
  return async (req, res, next) => {
    const token = sessionTokenOf(req);
    if (token === undefined) return toSignIn(req, res, undefined);
    const account = await deps.sessions.lookup(token);
    if (account === null) {
      res.clearCookie(cookieNames(req).session, cookieOptions(req));
      return toSignIn(req, res, 'Your session has ended. Sign in again.');
    }
    requestState(req).session = { account, token, csrfToken: csrfTokenFor(token) };
    next();
  };
}
