import type { EdgeResponse } from '@svc/http-kit';
import type { Router } from 'express';
import { type PageModule, SIGNED_IN } from '../page-kit';
import type { DashboardDeps } from '../ports';
import { sendErrorPage, sendPage } from '../render';
import { CSRF_REFUSAL, cookieNames, cookieOptions, originAllowed, safeNextPath } from '../security';
import { sessionTokenOf } from '../session';
import { MAX_SIGN_IN_EMAIL, MAX_SIGN_IN_PASSWORD, throttledMessage } from '../sign-in/sign-in';

// chars: longer inputs are refused like a wrong password, before any hashing (sign-in/sign-in.ts).
const MAX_EMAIL = MAX_SIGN_IN_EMAIL;
const MAX_PASSWORD = MAX_SIGN_IN_PASSWORD;
const WRONG = 'Wrong email or password.';

function field(body: unknown, name: string): string {
  const value: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, name) : undefined;
  return typeof value === 'string' ? value : '';
}

function SignInForm(props: { readonly email: string; readonly next: string; readonly error?: string }) {
  return (
    <form method="post" action="/dashboard/sign-in" class="sign-in">
      {props.error === undefined ? null : (
        <p class="form-error" role="alert" data-testid="sign-in-error">
          {props.error}
        </p>
      )}
      <input type="hidden" name="next" value={props.next} />
      <label>
        Email
        <input
          type="email"
          name="email"
          value={props.email}
          autoComplete="username"
          required
          maxLength={MAX_EMAIL}
        />
      </label>
      <label>
        Password
        <input
          type="password"
          name="password"
          autoComplete="current-password"
          required
          maxLength={MAX_PASSWORD}
        />
      </label>
      <button type="submit" data-testid="sign-in-submit">
        Sign in
      </button>
    </form>
  );
}

function showForm(
  req: Parameters<typeof sendPage>[0],
  res: EdgeResponse,
  email: string,
  next: string,
  error?: string,
) {
  sendPage(req, res, {
    title: 'Sign in',
    status: error === undefined ? 200 : 401,
    body: <SignInForm email={email} next={next} error={error} />,
  });
}

/**
 * GET/POST /dashboard/sign-in. Throttled per account and per address (sign-in/ gate) before the
 * password is checked; a wrong email and a wrong password get the same answer in the same time (the
 * account store verifies against a dummy hash).
 */
export function signInRoutes(router: Router, deps: DashboardDeps): void {
  router.get('/sign-in', async (req, res: EdgeResponse) => {
    const next = safeNextPath(req.query.next);
    // Already signed in (a bookmark, the back button): straight on.
    const token = sessionTokenOf(req);
    if (token !== undefined && (await deps.sessions.lookup(token)) !== null) return res.redirect(303, next);
    showForm(req, res, '', next);
  });

  router.post('/sign-in', async (req, res: EdgeResponse) => {
    // No session yet, so no synchronizer token: a cross-site POST is refused by its Origin, and
    // SameSite=Strict keeps the new cookie out of any cross-site request.
    if (!originAllowed(req, deps.publicBaseUrl)) return sendErrorPage(req, res, 403, CSRF_REFUSAL);
    const email = field(req.body, 'email').trim().toLowerCase();
    const password = field(req.body, 'password');
    const next = safeNextPath(field(req.body, 'next'));
    const ip = req.ip ?? 'unknown';
    const wait = await deps.signInGate.retryAfterSeconds(email, ip);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return sendErrorPage(req, res, 429, throttledMessage(wait));
    }
    const tooLong = email.length > MAX_EMAIL || password.length > MAX_PASSWORD;
    const account = tooLong ? null : await deps.accounts.verifyPassword(email, password);
    if (account === null) {
      await deps.signInGate.failed(email, ip);
      return showForm(req, res, email.slice(0, MAX_EMAIL), next, WRONG);
    }
    await deps.signInGate.succeeded(email, ip);
    const session = await deps.sessions.start({
      accountId: account.id,
      userAgent: req.get('user-agent')?.slice(0, 500),
      ip,
    });
    const now = deps.now?.() ?? Date.now();
    res.cookie(
      cookieNames(req).session,
      session.token,
      cookieOptions(req, Math.max(0, session.expiresAt.getTime() - now)),
    );
    res.redirect(303, next);
  });
}

/**
 * POST /dashboard/sign-out and /sign-out-everywhere: form actions like any other (the page kit's CSRF
 * check, whatever the body), open to every signed-in role.
 */
export const signOutPages: PageModule = (kit) => {
  const { deps } = kit;
  kit.post('/sign-out', SIGNED_IN, async (ctx) => {
    const token = sessionTokenOf(ctx.req);
    if (token !== undefined) await deps.sessions.end(token);
    ctx.res.clearCookie(cookieNames(ctx.req).session, cookieOptions(ctx.req));
    ctx.redirect('/dashboard/sign-in', 'You are signed out.');
  });
  kit.post('/sign-out-everywhere', SIGNED_IN, async (ctx) => {
    await deps.sessions.endAll(ctx.account.id);
    ctx.res.clearCookie(cookieNames(ctx.req).session, cookieOptions(ctx.req));
    ctx.redirect('/dashboard/sign-in', 'You are signed out on every device.');
  });
};
