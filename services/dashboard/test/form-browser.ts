import { PASSWORD } from './memory-stores';

/**
 * A browser played over HTTP against the dashboard's origin: cookies by hand, the CSRF token read
 * from the page's `_csrf` input, forms sent urlencoded.
 */

/** A browser's view of one signed-in person: its cookie, and the CSRF token of its pages. */
export interface Browser {
  readonly cookie: string;
  readonly csrf: string;
  get(path: string): Promise<Response>;
  /** POSTs a urlencoded form; `_csrf` is added unless `fields` sets it (or `null` leaves it out). */
  post(
    path: string,
    fields?: Record<string, string | string[] | null>,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('no _csrf input in the page');
  return match[1];
}

export function formBody(fields: Record<string, string | string[] | null>): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  return body;
}

/** The value of a Set-Cookie `name=` in `res` (undefined when not set). */
export function setCookie(res: Response, name: string): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq) === name) return decodeURIComponent(pair.slice(eq + 1));
  }
  return undefined;
}

/** What `signIn` needs of a harness: a fetch against the dashboard's origin. */
export interface Origin {
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

export async function signIn(harness: Origin, email: string, password = PASSWORD): Promise<Browser> {
  const res = await harness.fetch('/dashboard/sign-in', {
    method: 'POST',
    body: formBody({ email, password }),
    redirect: 'manual',
  });
  const token = setCookie(res, 'svc_dashboard');
  if (res.status !== 303 || token === undefined) throw new Error(`sign-in failed: ${res.status}`);
  const cookie = `svc_dashboard=${token}`;
  const overview = await harness.fetch('/dashboard', { headers: { cookie }, redirect: 'manual' });
  const csrf = csrfOf(await overview.text());
  const get = (path: string) => harness.fetch(path, { headers: { cookie }, redirect: 'manual' });
  const post: Browser['post'] = (path, fields = {}, headers = {}) =>
    harness.fetch(path, {
      method: 'POST',
      headers: { cookie, ...headers },
      body: formBody({ _csrf: csrf, ...fields }),
      redirect: 'manual',
    });
  return { cookie, csrf, get, post };
}
