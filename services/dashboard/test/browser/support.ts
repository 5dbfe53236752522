import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findWorkspaceRoot } from '@svc/devstack';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

/**
 * The browser harness of the dashboard suites (services/dashboard/test/browser/*): the
 * machine's Debian chromium driven by playwright-core (which downloads no browser), one fresh
 * context per test (its own cookie jar: no session leaks from one test into the next), a sign-in
 * helper, form submission that waits for the answer page, and full-page screenshots at one fixed
 * viewport written to docs/dashboard/<page>.png.
 */

/**
 * Headless, no sandbox (the tests run as an unprivileged user without the namespaces it needs), no
 * GPU, none of chromium's own background traffic: the same flags as the worker's html-to-pdf host.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

/** The worker's default (packages/capabilities html-to-pdf env: CHROMIUM_PATH): Debian's headless shell. */
const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium-headless-shell';
// ms: chromium's start on a busy 2-core machine.
const LAUNCH_TIMEOUT_MS = 60_000;
// ms: one navigation or one action of a test; the dashboard answers from loopback.
const ACTION_TIMEOUT_MS = 20_000;

/** The fixed viewport of every screenshot (the pages are laid out for it; full page below it). */
export const VIEWPORT = { width: 1280, height: 900 } as const;

/** A phone's viewport (an iPhone 12-15's CSS width): the narrowest the dashboard is laid out for. */
export const NARROW_VIEWPORT = { width: 390, height: 844 } as const;

/** Where the screenshots go: docs/dashboard/ of the workspace. */
export const SCREENSHOT_DIR = join(findWorkspaceRoot(__dirname), 'docs', 'dashboard');

/**
 * CHROMIUM_PATH when set (as the worker reads it, trimmed), else the worker's default; throws
 * naming the path when no browser is there, instead of playwright's longer launch error.
 */
export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH?.trim();
  const path = configured === undefined || configured === '' ? DEFAULT_CHROMIUM_PATH : configured;
  if (!existsSync(path)) {
    throw new Error(
      `no chromium at ${path}: install Debian's chromium-headless-shell package or set CHROMIUM_PATH`,
    );
  }
  return path;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS],
    timeout: LAUNCH_TIMEOUT_MS,
  });
}

/** What the page's console said at error level (a CSP refusal shows there), for assertions. */
export interface PageProblems {
  readonly console: string[];
  readonly pageErrors: string[];
}

export interface DashboardTab {
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
  /** The messages of the dialogs the page opened (app.js `confirm`), in order; each was accepted. */
  dialogs: string[];
}

/**
 * A new context (own cookies, the fixed viewport, downloads accepted) and one page in it, with
 * `baseURL` the gateway (which proxies /dashboard to the dashboard process), so tests navigate with paths (`/dashboard/keys`). Confirm dialogs of
 * app.js are recorded and accepted (playwright would dismiss them). Close the context after the test.
 */
export async function openTab(browser: Browser, gatewayUrl: string): Promise<DashboardTab> {
  const context = await browser.newContext({
    baseURL: gatewayUrl,
    viewport: VIEWPORT,
    acceptDownloads: true,
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(ACTION_TIMEOUT_MS);
  const page = await context.newPage();
  const problems: PageProblems = { console: [], pageErrors: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.console.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  return { context, page, problems, dialogs };
}

/**
 * Clicks `submit` (a form's button) and waits for the document that answers it (after redirects):
 * its HTTP status. Works for a POST answered in place (a refused sign-in) as for a 303 to a page.
 */
export async function submitAndLoad(page: Page, submit: Locator): Promise<number> {
  const answered = page.waitForResponse(
    (response) =>
      response.request().isNavigationRequest() &&
      response.frame() === page.mainFrame() &&
      (response.status() < 300 || response.status() >= 400),
  );
  const loaded = page.waitForEvent('load');
  await submit.click();
  const response = await answered;
  await loaded;
  return response.status();
}

/** Goes to `path` and answers the final document's status (0 when there was no response). */
export async function visit(page: Page, path: string): Promise<number> {
  const response = await page.goto(path, { waitUntil: 'load' });
  return response?.status() ?? 0;
}

export interface Credentials {
  email: string;
  password: string;
}

/** Fills and submits the sign-in form on the page it is on (or /dashboard/sign-in); the answer's status. */
export async function submitSignIn(page: Page, credentials: Credentials): Promise<number> {
  if (!new URL(page.url(), 'http://x').pathname.startsWith('/dashboard/sign-in')) {
    await visit(page, '/dashboard/sign-in');
  }
  await page.locator('input[name=email]').fill(credentials.email);
  await page.locator('input[name=password]').fill(credentials.password);
  return submitAndLoad(page, page.getByTestId('sign-in-submit'));
}

/** Signs in and expects to land on a dashboard page other than sign-in; throws quoting the page otherwise. */
export async function signIn(page: Page, credentials: Credentials): Promise<void> {
  const status = await submitSignIn(page, credentials);
  const path = new URL(page.url()).pathname;
  if (status !== 200 || path.startsWith('/dashboard/sign-in')) {
    const text = (await visibleText(page.locator('body'))).slice(0, 500);
    throw new Error(`sign-in as ${credentials.email} failed: ${status} at ${page.url()}: ${text}`);
  }
}

export interface ScreenshotOptions {
  /** Elements painted over (a key shown once: it has no place in a committed picture). */
  mask?: Locator[];
  /** Default VIEWPORT; NARROW_VIEWPORT for the phone pictures. */
  viewport?: { width: number; height: number };
}

/** A full-page screenshot of the page as it is, at the fixed viewport (or the one given): docs/dashboard/<name>.png. */
export async function screenshot(page: Page, name: string, options: ScreenshotOptions = {}): Promise<string> {
  if (!/^[a-z0-9-]+$/.test(name))
    throw new Error(`screenshot name ${name}: lowercase letters, digits, dashes`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.setViewportSize(options.viewport ?? VIEWPORT);
  await page.screenshot({
    path,
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
    ...(options.mask === undefined ? {} : { mask: options.mask, maskColor: '#9aa0a6' }),
  });
  return path;
}

/** The text a reader sees in `locator` (its first match), trimmed: rendered text, hidden parts left out. */
export async function visibleText(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: playwright's Locator.innerText(), not the DOM property
  return (await locator.first().innerText()).trim();
}

/** The text of the `data-testid` element, trimmed (throws when it is not on the page). */
export function testIdText(page: Page, testId: string): Promise<string> {
  return visibleText(page.getByTestId(testId));
}

/** How the page fits its viewport: the document's scroll width, the header's width, the viewport's. */
export async function layoutWidths(
  page: Page,
): Promise<{ scrollWidth: number; headerWidth: number | null; viewportWidth: number }> {
  return page.evaluate(() => {
    const header = document.querySelector('header');
    return {
      scrollWidth: document.documentElement.scrollWidth,
      headerWidth: header === null ? null : Math.round(header.getBoundingClientRect().width),
      viewportWidth: window.innerWidth,
    };
  });
}

/** The error page's status (`[data-testid=error][data-status]`), or undefined when the page is no error page. */
export async function errorStatus(page: Page): Promise<number | undefined> {
  const error = page.getByTestId('error');
  if ((await error.count()) === 0) return undefined;
  const status = await error.first().getAttribute('data-status');
  return status === null ? undefined : Number(status);
}
