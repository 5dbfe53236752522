import { AppError } from '@svc/errors';
import type { EdgeResponse } from '@svc/http-kit';
import type { Request, Response } from 'express';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { requestState } from './request-state';
import { cookieNames, cookieOptions } from './security';
import { ErrorMessage, errorTitle } from './views/error-page';
import { BareLayout, Layout, type NavKey } from './views/layout';

/** Sends a whole HTML document (preact escapes every text and attribute). */
export function sendHtml(res: Response, status: number, page: VNode): void {
  res
    .status(status)
    .type('html')
    .send(`<!doctype html>${renderToString(page)}`);
}

/** The flash of this request, once: its cookie is cleared as it is shown. */
export function takeFlash(req: Request, res: Response): string | undefined {
  const state = requestState(req);
  const flash = state.flash;
  if (flash !== undefined) {
    res.clearCookie(cookieNames(req).flash, cookieOptions(req));
    state.flash = undefined;
  }
  return flash;
}

/** Leaves a one-line notice for the next page (a short-lived cookie), then redirects (303). */
export function redirectWithFlash(req: Request, res: Response, path: string, flash?: string): void {
  if (flash !== undefined)
    res.cookie(cookieNames(req).flash, flash.slice(0, 300), cookieOptions(req, 60_000));
  res.redirect(303, path);
}

export interface PageSpec {
  readonly title: string;
  readonly body: VNode;
  readonly active?: NavKey;
  readonly status?: number;
}

/** A page in the signed-in layout when there is a session, else in the bare one. */
export function sendPage(req: Request, res: Response, spec: PageSpec): void {
  const session = requestState(req).session;
  const flash = takeFlash(req, res);
  const page = session ? (
    <Layout
      title={spec.title}
      account={session.account}
      csrfToken={session.csrfToken}
      active={spec.active}
      flash={flash}
    >
      {spec.body}
    </Layout>
  ) : (
    <BareLayout title={spec.title} flash={flash}>
      {spec.body}
    </BareLayout>
  );
  sendHtml(res, spec.status ?? 200, page);
}

/** A refusal or failure a page chooses to show: `throw new PageError(404, '…')`. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

const NOT_FOUND_TEXT = 'There is nothing here: the page or the item does not exist, or it is not yours.';

/** What the page says for a refusal or failure of `status` (`message`: a 4xx's own words). */
export function pageMessage(status: number, message: string): string {
  // A service's 404 says whose item is missing in its own words: the page answers in ours.
  if (status < 500) return status === 404 ? NOT_FOUND_TEXT : message;
  if (status === 503 || status === 504) return 'A service did not answer in time. Try again in a moment.';
  return 'Something went wrong on our side. Try again; if it persists, tell the operator.';
}

/** Status and message shown for anything a page threw; 5xx keep the real error for the request log. */
export function describeFailure(err: unknown, res: EdgeResponse): { status: number; message: string } {
  if (err instanceof PageError) return { status: err.status, message: err.message };
  if (err instanceof AppError && err.status < 500) {
    return { status: err.status, message: pageMessage(err.status, err.message) };
  }
  res.locals.failure = err instanceof Error ? err : new Error(String(err));
  const status = err instanceof AppError && (err.status === 503 || err.status === 504) ? err.status : 500;
  return { status, message: pageMessage(status, '') };
}

export function sendErrorPage(req: Request, res: Response, status: number, message: string): void {
  sendPage(req, res, {
    title: errorTitle(status),
    status,
    body: <ErrorMessage status={status} message={message} />,
  });
}

export { NOT_FOUND_TEXT };
