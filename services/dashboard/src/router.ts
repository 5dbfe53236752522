import type { EdgeHandler, EdgeResponse } from '@svc/http-kit';
import { MAX_ERROR_PAGE_MESSAGE } from '@svc/http-kit';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, Router } from 'express';
import { assetsRouter } from './assets';
import { createPageKit } from './page-kit';
import { PAGE_MODULES } from './pages';
import { signInRoutes } from './pages/sign-in';
import type { DashboardDeps } from './ports';
import { describeFailure, NOT_FOUND_TEXT, pageMessage, sendErrorPage } from './render';
import { DASHBOARD_CSP } from './security';
import { readFlash, requireSession } from './session';

/** bytes: the largest urlencoded form (the longest is a vault field's value); multipart is multer's. */
const FORM_BODY_LIMIT = '64kb';

/** On every dashboard answer, errors and assets included: helmet's API policies are replaced here. */
function setDashboardHeaders(res: EdgeResponse): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('Cache-Control', 'no-store');
  // helmet's `no-referrer` makes a browser send `Origin: null` with a form POST, which the CSRF
  // check must refuse; `same-origin` sends our own origin and still nothing to other sites.
  res.setHeader('Referrer-Policy', 'same-origin');
}

const securityHeaders: EdgeHandler = (_req, res, next) => {
  setDashboardHeaders(res);
  next();
};

/**
 * The dashboard at /dashboard (app.ts mounts it; the gateway proxies its origin's /dashboard here): headers → assets → cookies, form bodies, flash →
 * sign-in (no session) → session → the page modules, sign-out included → 404 page → error page.
 * Past the session check every route is declared through the page kit, whose `post` is the one CSRF
 * check of every form action (page-kit.ts). It answers HTML everywhere, its own 404 and errors
 * included (the API's JSON ones never reach it).
 */
export function dashboardRouter(deps: DashboardDeps): Router {
  const router = Router();
  router.use(securityHeaders);
  router.use('/assets', assetsRouter());
  router.use(cookieParser());
  router.use(express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 1_000 }));
  router.use(readFlash);
  signInRoutes(router, deps);
  router.use(requireSession(deps));
  const kit = createPageKit(router, deps);
  for (const module of PAGE_MODULES) module(kit);
  router.use((req: Request, res: EdgeResponse) => sendErrorPage(req, res, 404, NOT_FOUND_TEXT));
  router.use(dashboardErrorPage);
  return router;
}

/**
 * Anything thrown under /dashboard as an HTML error page with the dashboard's headers: the router's
 * own failures, and (app.ts mounts it at /dashboard too) what the app's middleware refuses before the
 * router runs, such as a malformed URL (422).
 */
export function dashboardErrorPage(err: unknown, req: Request, res: EdgeResponse, next: NextFunction): void {
  if (res.headersSent) {
    next(err);
    return;
  }
  setDashboardHeaders(res);
  if (typeof err === 'object' && err !== null && 'type' in err && err.type === 'entity.too.large') {
    sendErrorPage(req, res, 413, 'The form is too large.');
    return;
  }
  const failure = describeFailure(err, res);
  sendErrorPage(req, res, failure.status, failure.message);
}

/**
 * `GET /internal/error-page?status=&message=` (@svc/http-kit upstreamErrorPage): what the gateway
 * refuses under /dashboard before proxying it (a spent rate-limit budget 429, an unsafe path 422),
 * answered as this error page, as if the dashboard had refused it. Internal: the gateway proxies
 * only /dashboard, never this path.
 */
export function internalErrorPage(req: Request, res: EdgeResponse): void {
  const status = Number(req.query.status);
  const valid = Number.isInteger(status) && status >= 400 && status <= 599;
  const code = valid ? status : 400;
  const text =
    typeof req.query.message === 'string' ? req.query.message.slice(0, MAX_ERROR_PAGE_MESSAGE) : '';
  setDashboardHeaders(res);
  sendErrorPage(req, res, code, pageMessage(code, valid ? text : 'The request could not be read.'));
}
