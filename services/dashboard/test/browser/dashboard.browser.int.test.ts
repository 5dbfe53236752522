import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  SCOPES as ALL_SCOPES,
  BalanceResponse,
  ExtractionResponse,
  ListVaultFieldsResponse,
  RunStatusResponse,
} from '@svc/contracts';
import { makePdf } from '@svc/gateway/test/files/sample-files';
import { artifactsOk, runToCompletion, sha256, uploadOk } from '@svc/gateway/test/files/support';
import { quoteAndRun } from '@svc/gateway/test/quote-first/support';
import { type SharedPlatform, sharedPlatform } from '@svc/gateway/test/support/shared-platform';
import {
  createTestAccount,
  pollUntil,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  type TestApiKey,
} from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { SHOWN_ALREADY } from '../../src/pages/keys';
import {
  type Credentials,
  type DashboardTab,
  errorStatus,
  launchBrowser,
  layoutWidths,
  NARROW_VIEWPORT,
  openTab,
  screenshot,
  signIn,
  submitAndLoad,
  submitSignIn,
  testIdText,
  visibleText,
  visit,
} from './support';

/**
 * Issue 18's dashboard in a real browser (Debian chromium through playwright-core) against the jest
 * run's shared platform: sign-in (a wrong password, the per-account throttle), a key created on the
 * keys page and used against the REST API, its "last used" on reload, its revocation (401), a queued
 * run cancelled from its page, an extraction reviewed (one approved, one rejected: only the approved
 * one becomes a field), a template filled with the ticked fields only, an artifact downloaded with
 * its SHA-256 checked, the 403 page of a role and the 404 of another client's run, usage (page and
 * CSV) and the overview against the API's balance. Pages that load without an error status must
 * log no console error (a CSP refusal shows there) and throw nothing. Each test has its own
 * browser context (cookie jar); the suite isolates itself by its own client. Every page is saved as
 * docs/dashboard/<page>.png (1280x900 viewport, full page).
 */

jest.setTimeout(120_000);

const tag = randomBytes(4).toString('hex');
/** The main client's key: what the REST side of the flows uses (runs, uploads, vault), every scope but vault:fill. */
const SCOPES = ALL_SCOPES.filter((scope) => scope !== 'vault:fill');
/** The throttle's 429 page (design: per account 5 failures in 15 min, per address 20). */
const THROTTLED = /Too many sign-in attempts\. Try again in \d+ minutes?\./;

/** What a page's console said at error level and what it threw: nothing (a CSP refusal shows there). */
const NO_PROBLEMS = { console: [], pageErrors: [] };

let platform: SharedPlatform;
let stack: SharedTestStack;
let browser: Browser;
let key: TestApiKey;
let owner: Credentials;
let tab: DashboardTab;
let page: Page;

beforeAll(async () => {
  platform = await sharedPlatform();
  stack = platform.stack;
  browser = await launchBrowser();
  key = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5', clientName: `dash-browser-${tag}` });
  owner = await createTestAccount(platform, { clientId: key.clientId, role: 'owner' });
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

beforeEach(async () => {
  tab = await openTab(browser, stack.gatewayUrl);
  page = tab.page;
});

afterEach(async () => {
  await tab?.context.close();
});

function pathOf(p: Page): string {
  return new URL(p.url()).pathname;
}

/** The dashboard's session cookies in the tab's jar (loopback http: `svc_dashboard`, no `__Host-`). */
async function sessionCookies(t: DashboardTab) {
  return (await t.context.cookies()).filter((c) => c.name.endsWith('svc_dashboard'));
}

async function rest(path: string, apiKey: string): Promise<number> {
  return (await stack.fetch(path, { apiKey })).status;
}

describe('sign-in', () => {
  it('refuses a wrong password with one message, then signs in and goes back where it was sent from', async () => {
    expect(await visit(page, '/dashboard/keys')).toBe(200);
    expect(pathOf(page)).toBe('/dashboard/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/keys');
    await screenshot(page, 'sign-in');

    expect(await submitSignIn(page, { email: owner.email, password: `${owner.password}x` })).toBe(401);
    expect(pathOf(page)).toBe('/dashboard/sign-in');
    expect(await testIdText(page, 'sign-in-error')).toBe('Wrong email or password.');
    expect(await sessionCookies(tab)).toEqual([]);
    await screenshot(page, 'sign-in-refused');

    // The same answer for an unknown address: nothing tells which accounts exist.
    expect(await submitSignIn(page, { email: `nobody-${tag}@example.org`, password: owner.password })).toBe(
      401,
    );
    expect(await testIdText(page, 'sign-in-error')).toBe('Wrong email or password.');

    await visit(page, '/dashboard/sign-in?next=%2Fdashboard%2Fkeys');
    await signIn(page, owner);
    expect(pathOf(page)).toBe('/dashboard/keys');
    const cookies = await sessionCookies(tab);
    expect(
      cookies.map((c) => ({ name: c.name, httpOnly: c.httpOnly, sameSite: c.sameSite, path: c.path })),
    ).toEqual([{ name: 'svc_dashboard', httpOnly: true, sameSite: 'Strict', path: '/' }]);
  });

  it('throttles an account after five failures: even its right password gets the 429 page', async () => {
    const { clientId } = await stack.createApiKey({ scopes: ['billing:read'] });
    const throttled = await createTestAccount(platform, { clientId, role: 'viewer' });
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await submitSignIn(page, { email: throttled.email, password: `wrong-${attempt}` })).not.toBe(
        429,
      );
      expect(pathOf(page)).toBe('/dashboard/sign-in');
    }
    expect(await submitSignIn(page, throttled)).toBe(429);
    expect(await visibleText(page.locator('body'))).toMatch(THROTTLED);
    expect(await sessionCookies(tab)).toEqual([]);
    await screenshot(page, 'sign-in-throttled');

    // Per account: the main account, from the same address, still signs in.
    const other = await openTab(browser, stack.gatewayUrl);
    try {
      await signIn(other.page, owner);
    } finally {
      await other.context.close();
    }
  });

  it('signs out: the session is gone and pages send back to sign-in', async () => {
    await signIn(page, owner);
    const signedIn = await sessionCookies(tab);
    expect(signedIn).toHaveLength(1);
    await submitAndLoad(page, page.getByTestId('sign-out'));
    expect(pathOf(page)).toBe('/dashboard/sign-in');
    expect(await testIdText(page, 'flash')).toBe('You are signed out.');
    expect(await sessionCookies(tab)).toEqual([]);
    // The session is gone on the server, not only from the jar: the old cookie put back opens nothing.
    await tab.context.addCookies(signedIn);
    expect(await visit(page, '/dashboard')).toBe(200);
    expect(pathOf(page)).toBe('/dashboard/sign-in');
  });

  it('signs out everywhere: another browser signed in as the same account is signed out too', async () => {
    const other = await openTab(browser, stack.gatewayUrl);
    try {
      await signIn(page, owner);
      await signIn(other.page, owner);
      expect(await visit(other.page, '/dashboard/usage')).toBe(200);
      await submitAndLoad(page, page.getByTestId('sign-out-everywhere'));
      expect(pathOf(page)).toBe('/dashboard/sign-in');
      expect(await testIdText(page, 'flash')).toBe('You are signed out on every device.');
      expect(await visit(other.page, '/dashboard/usage')).toBe(200);
      expect(pathOf(other.page)).toBe('/dashboard/sign-in');
    } finally {
      await other.context.close();
    }
  });
});

describe('API keys', () => {
  it('creates a key shown once, used against the API, last used on reload, revoked: 401', async () => {
    await signIn(page, owner);
    expect(await visit(page, '/dashboard/keys')).toBe(200);
    await screenshot(page, 'keys');
    // Every page the browser is sent (main frame, not a redirect), for "the key shown exactly once".
    const documents: Array<Promise<string>> = [];
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) {
        if (response.status() < 300 || response.status() >= 400) documents.push(response.text());
      }
    });

    const label = `browser-${tag}`;
    const rowsOf = () => page.locator('tr[data-testid=key-row]').filter({ hasText: label });
    await page.locator('input[name=name]').fill(label);
    await page.locator('input[name=scopes][value="billing:read"]').check();
    // POST-redirect-GET (issue 23): the form's answer is a 303 to the page that shows the key.
    expect(await submitAndLoad(page, page.getByTestId('create-key'))).toBe(200);
    expect(pathOf(page)).toMatch(/^\/dashboard\/keys\/created\/[A-Za-z0-9_-]{22}$/);
    const shown = page.getByTestId('new-api-key');
    const apiKey = await visibleText(shown);
    expect(apiKey.length).toBeGreaterThan(20);
    expect(page.url()).not.toContain(apiKey);
    await screenshot(page, 'key-created', { mask: [shown] });
    // app.js runs under the CSP: its copy button shows and puts the key on the clipboard.
    await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.gatewayUrl });
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);

    // A reload of the created page neither creates a second key nor shows this one again: it lands
    // on the list, which says why. Back from there is the list as it was before, not a second POST.
    await page.reload();
    expect(pathOf(page)).toBe('/dashboard/keys');
    expect(await testIdText(page, 'flash')).toBe(SHOWN_ALREADY);
    expect(await page.content()).not.toContain(apiKey);
    expect(await rowsOf().count()).toBe(1);
    await page.goBack();
    expect(pathOf(page)).toBe('/dashboard/keys');
    expect(await rowsOf().count()).toBe(1);
    const pages = await Promise.all(documents);
    expect(pages.filter((html) => html.includes(apiKey))).toHaveLength(1);

    // Shown once: the list has its prefix, never the key; not used yet.
    expect(await visit(page, '/dashboard/keys')).toBe(200);
    expect(await page.content()).not.toContain(apiKey);
    const row = rowsOf();
    expect(await row.count()).toBe(1);
    const keyId = await row.getAttribute('data-key-id');
    const prefix = (await visibleText(row.getByTestId('key-prefix'))).replace(/[.…]+$/, '');
    expect(apiKey.startsWith(prefix)).toBe(true);
    expect(await visibleText(row.getByTestId('key-scopes'))).toBe('billing:read');
    expect(await visibleText(row.getByTestId('key-last-used'))).toBe('never');

    // The key works, with the scope it was given and no other.
    const whoami = await stack.fetch('/api/account/whoami', { apiKey });
    expect(whoami.status).toBe(200);
    expect(whoami.json).toMatchObject({ client_id: key.clientId, key_id: keyId, scopes: ['billing:read'] });
    expect(await rest('/api/account/balance', apiKey)).toBe(200);
    expect(await rest('/api/vault/fields', apiKey)).toBe(403);

    // The recorder writes last-used in the background: reload until the cell shows a time.
    const lastUsed = await pollUntil(
      async () => {
        await page.reload();
        const text = await visibleText(row.getByTestId('key-last-used'));
        return text !== 'never' && text;
      },
      { what: 'the key-last-used cell to show a time', timeoutMs: 20_000, intervalMs: 500 },
    );
    expect(lastUsed).toMatch(/\d/);
    expect(await page.locator(`tr[data-testid=key-row][data-key-id="${key.keyId}"]`).count()).toBe(1);

    // Revoke: a confirm page, then the key is refused everywhere.
    expect(await visit(page, `/dashboard/keys/${keyId}/revoke`)).toBe(200);
    await screenshot(page, 'key-revoke');
    await submitAndLoad(page, page.getByTestId('revoke-confirm'));
    expect(pathOf(page)).toBe('/dashboard/keys');
    expect(await row.count()).toBe(0);
    await pollUntil(async () => (await rest('/api/account/whoami', apiKey)) === 401, {
      what: 'the revoked key to get 401',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect(await rest('/api/account/balance', key.apiKey)).toBe(200);
    expect(tab.problems).toEqual(NO_PROBLEMS);
    await screenshot(page, 'keys-after-revoke');
  });
});

describe('runs', () => {
  it('cancels a queued run from its page', async () => {
    // html-to-pdf needs a browser worker, which the shared platform has none of: it stays queued.
    const started = await quoteAndRun(stack, key.apiKey, 'html-to-pdf', { html: `<p>${tag}</p>` });
    await signIn(page, owner);
    expect(await visit(page, '/dashboard/runs')).toBe(200);
    const row = page.locator(`tr[data-testid=run-row][data-run-id="${started.run_id}"]`);
    expect(await row.count()).toBe(1);
    await screenshot(page, 'runs');

    expect(await visit(page, `/dashboard/runs/${started.run_id}`)).toBe(200);
    expect(await page.getByTestId('run-state').getAttribute('data-state')).toBe('queued');
    await screenshot(page, 'run-queued');
    await submitAndLoad(page, page.getByTestId('run-cancel'));
    // app.js asked first (the dialog was accepted).
    expect(tab.dialogs).toEqual([expect.stringMatching(/^Cancel this run\?/)]);
    expect(pathOf(page)).toBe(`/dashboard/runs/${started.run_id}`);
    const run = await pollUntil(
      async () => {
        const answer = await stack.fetch(`/api/capability-runs/${started.run_id}`, { apiKey: key.apiKey });
        const status = RunStatusResponse.parse(answer.json);
        return status.status === 'cancelled' && status;
      },
      { what: `run ${started.run_id} to be cancelled`, timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(run.status).toBe('cancelled');
    await page.reload();
    expect(await page.getByTestId('run-state').getAttribute('data-state')).toBe('cancelled');
    expect(await page.getByTestId('run-cancel').count()).toBe(0);
    await screenshot(page, 'run-cancelled');
    expect(tab.problems).toEqual(NO_PROBLEMS);
  });

  it('downloads an artifact of a completed run: the bytes are the manifest SHA-256', async () => {
    const pdf = await makePdf([`Dashboard browser test ${tag}`]);
    const upload = await uploadOk(
      stack,
      key.apiKey,
      'pdf-extract-text',
      { filename: 'letter.pdf', content_type: 'application/pdf' },
      pdf,
    );
    const { run } = await runToCompletion(stack, key.apiKey, 'pdf-extract-text', {
      upload_id: upload.upload_id,
    });
    const manifest = await artifactsOk(stack, key.apiKey, run.run_id);
    const artifact = manifest.artifacts.find((a) => a.name === 'text.txt');
    if (artifact === undefined) throw new Error(`no text.txt among ${JSON.stringify(manifest.artifacts)}`);

    await signIn(page, owner);
    expect(await visit(page, `/dashboard/runs/${run.run_id}`)).toBe(200);
    expect(await page.getByTestId('run-state').getAttribute('data-state')).toBe('completed');
    await expect(page.getByTestId('run-result').count()).resolves.toBe(1);
    await screenshot(page, 'run-completed');

    const link = page.locator(`a[data-testid=artifact-download][data-artifact-id="${artifact.artifact_id}"]`);
    const downloading = page.waitForEvent('download');
    await link.click();
    const download = await downloading;
    const path = await download.path();
    const bytes = await readFile(path);
    expect(bytes.byteLength).toBe(artifact.size_bytes);
    expect(sha256(bytes)).toBe(artifact.sha256);
    expect(bytes.toString('utf8')).toContain(`Dashboard browser test ${tag}`);
    expect(tab.problems).toEqual(NO_PROBLEMS);
  });
});

describe('vault', () => {
  it('reviews an extraction: approves one candidate, rejects the rest, only the approved one is a field', async () => {
    const iban = 'DE89370400440532013000';
    const letter = [
      'Dear client,',
      `E-mail: review.${tag}@example.org`,
      `IBAN: ${iban.replace(/(.{4})/g, '$1 ').trim()}`,
      'Kind regards',
    ].join('\n');
    const created = await stack.fetch('/api/vault/extractions', {
      method: 'POST',
      apiKey: key.apiKey,
      json: { document: { text: letter } },
    });
    expect(created.status).toBe(201);
    const extraction = ExtractionResponse.parse(created.json).extraction;
    const approve = extraction.candidates.find((c) => c.type === 'iban');
    const rejects = extraction.candidates.filter((c) => c !== approve);
    if (approve === undefined || rejects.length === 0) {
      throw new Error(`want an iban and another candidate: ${JSON.stringify(extraction.candidates)}`);
    }

    await signIn(page, owner);
    expect(await visit(page, '/dashboard/vault/extractions')).toBe(200);
    const listed = page.locator(
      `tr[data-testid=extraction-row][data-extraction-id="${extraction.extraction_id}"]`,
    );
    expect(await listed.count()).toBe(1);
    await screenshot(page, 'vault-extractions');

    await listed.locator('a').first().click();
    await page.waitForURL(`**/dashboard/vault/extractions/${extraction.extraction_id}`);
    const candidates = page.locator('[data-testid=candidate]');
    expect(await candidates.count()).toBe(extraction.candidates.length);
    // Masked, as the API shows them: the IBAN itself is nowhere on the page.
    expect(await page.content()).not.toContain(iban);
    await page.locator(`input[name="decision.${approve.candidate_id}"][value=approve]`).check();
    for (const candidate of rejects) {
      await page.locator(`input[name="decision.${candidate.candidate_id}"][value=reject]`).check();
    }
    await screenshot(page, 'vault-extraction-review');
    expect(await submitAndLoad(page, page.getByTestId('review-submit'))).toBe(200);
    expect(pathOf(page)).toBe(`/dashboard/vault/extractions/${extraction.extraction_id}`);
    expect(await testIdText(page, 'flash')).toBe(
      `Review applied: 1 field(s) saved, ${rejects.length} candidate(s) rejected.`,
    );
    const statuses = await candidates.evaluateAll((sets) =>
      sets.map((set) => [set.getAttribute('data-candidate-id'), set.getAttribute('data-status')]),
    );
    expect(Object.fromEntries(statuses)).toEqual(
      Object.fromEntries(
        extraction.candidates.map((c) => [c.candidate_id, c === approve ? 'approved' : 'rejected']),
      ),
    );
    expect(await page.getByTestId('review-submit').count()).toBe(0);
    await screenshot(page, 'vault-extraction-reviewed');

    // Through the API and on the fields page: the approved candidate's field and no other.
    const fields = ListVaultFieldsResponse.parse(
      (await stack.fetch('/api/vault/fields', { apiKey: key.apiKey })).json,
    ).fields;
    expect(fields.map((f) => f.name)).toEqual([approve.field_name]);
    expect(await visit(page, '/dashboard/vault')).toBe(200);
    const rows = page.locator('tr[data-testid=field-row]');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-field-name')))).toEqual([
      approve.field_name,
    ]);
    expect(await visibleText(rows.first().getByTestId('field-mask'))).toContain('*');
    expect(await page.content()).not.toContain(iban);
    await screenshot(page, 'vault');
    expect(tab.problems).toEqual(NO_PROBLEMS);
  });

  it('fills a text template with the ticked fields only, downloads it, and shows the fill in the audit', async () => {
    // A client of its own: the review test above counts this client's fields.
    const filler = await stack.createApiKey({ scopes: ['vault:write'] });
    const account = await createTestAccount(platform, { clientId: filler.clientId, role: 'owner' });
    const values = { city: 'Ærøskøbing', full_name: `Jana Novák ${tag}` };
    for (const [name, value] of Object.entries(values)) {
      const saved = await stack.fetch('/api/vault/fields', {
        method: 'POST',
        apiKey: filler.apiKey,
        json: { name, type: name, value },
      });
      expect(saved.status).toBe(201);
    }

    await signIn(page, account);
    expect(await visit(page, '/dashboard/vault/fill')).toBe(200);
    const template = 'Moving to {{city}}.\nSigned: {{full_name}}\n';
    await page.locator('input[type=file][name=template]').setInputFiles({
      name: 'notice.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(template, 'utf8'),
    });
    await page.locator('input[name=fields][value=city]').check();
    await screenshot(page, 'vault-fill');
    expect(await submitAndLoad(page, page.getByTestId('fill-submit'))).toBe(200);
    expect(await testIdText(page, 'fill-filled')).toContain('city');
    expect(await testIdText(page, 'fill-not-allowed')).toContain('full_name');
    await screenshot(page, 'vault-filled');

    const downloading = page.waitForEvent('download');
    await page.getByTestId('document-download').click();
    const filled = await readFile(await (await downloading).path(), 'utf8');
    expect(filled).toContain('Moving to Ærøskøbing.');
    expect(filled).not.toContain(values.full_name);

    expect(await visit(page, '/dashboard/vault/audit')).toBe(200);
    expect(await page.getByTestId('audit-row').count()).toBeGreaterThan(0);
    expect(await page.content()).not.toContain(values.full_name);
    await screenshot(page, 'vault-audit');
    expect(tab.problems).toEqual(NO_PROBLEMS);
  });
});

describe('roles and other clients', () => {
  it('a viewer gets the 403 page for the vault, and another client gets 404 for this client’s run', async () => {
    const viewer = await createTestAccount(platform, { clientId: key.clientId, role: 'viewer' });
    await signIn(page, viewer);
    expect(await visit(page, '/dashboard/vault')).toBe(403);
    expect(await errorStatus(page)).toBe(403);
    await screenshot(page, 'error-403');

    const started = await quoteAndRun(stack, key.apiKey, 'pii-redact', { text: `no secrets ${tag}` });
    const stranger = await stack.createApiKey({ scopes: ['billing:read'] });
    const outsider = await createTestAccount(platform, { clientId: stranger.clientId, role: 'owner' });
    const other = await openTab(browser, stack.gatewayUrl);
    try {
      await signIn(other.page, outsider);
      expect(await visit(other.page, `/dashboard/runs/${started.run_id}`)).toBe(404);
      expect(await errorStatus(other.page)).toBe(404);
      await screenshot(other.page, 'error-404');
    } finally {
      await other.context.close();
    }
  });
});

describe('overview and usage', () => {
  it('lists a charged run on the usage page and in its CSV', async () => {
    const { run } = await runToCompletion(stack, key.apiKey, 'pii-redact', {
      text: `Mail usage.${tag}@example.org`,
    });
    await signIn(page, owner);
    // The wallet captures in the background: reload until the run's capability has a row.
    const row = page.locator('table[data-testid=usage-table] tr[data-slug=pii-redact]');
    await pollUntil(
      async () => {
        expect(await visit(page, '/dashboard/usage')).toBe(200);
        return (await row.count()) === 1;
      },
      { what: 'pii-redact on the usage page', timeoutMs: 20_000, intervalMs: 500 },
    );
    expect(await page.content()).toContain(run.run_id);
    const csv = await page.getByTestId('usage-csv').getAttribute('href');
    expect(csv).toMatch(/^\/dashboard\/usage\.csv\?/);
    const answer = await tab.context.request.get(csv ?? '');
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toMatch(/^text\/csv/);
    // One line per capability: the same charged runs as the page's row.
    const runs = await visibleText(row.locator('td').nth(1));
    expect((await answer.text()).split('\n')).toContainEqual(
      expect.stringMatching(new RegExp(`,pii-redact,${runs},`)),
    );
    expect(tab.problems).toEqual(NO_PROBLEMS);
    await screenshot(page, 'usage');
  });

  it('shows the balance as the API does, the spend chart and the runs by state', async () => {
    await signIn(page, owner);
    // Holds and captures settle in the background: the page and the API agree once they are done.
    await pollUntil(
      async () => {
        const answer = await stack.fetch('/api/account/balance', { apiKey: key.apiKey });
        const balance = BalanceResponse.parse(answer.json);
        expect(await visit(page, '/dashboard')).toBe(200);
        const shown = {
          balance: await page.getByTestId('balance').getAttribute('data-usd'),
          held: await page.getByTestId('held').getAttribute('data-usd'),
        };
        return shown.balance === balance.balance_usd && shown.held === balance.held_usd;
      },
      { what: 'the overview to show the API balance', timeoutMs: 20_000, intervalMs: 500 },
    );
    for (const id of ['held', 'spent-month', 'spend-cap', 'runs-by-state', 'projection']) {
      expect(await page.getByTestId(id).count()).toBe(1);
    }
    expect(await page.locator('svg[data-testid=spend-chart]').count()).toBe(1);
    expect(tab.problems).toEqual(NO_PROBLEMS);
    await screenshot(page, 'overview');
  });
});

describe('a 390 px wide screen (issue 23)', () => {
  it('lays every page out within the screen, the header as wide as it', async () => {
    const { run } = await runToCompletion(stack, key.apiKey, 'pii-redact', { text: `narrow ${tag}` });
    await page.setViewportSize(NARROW_VIEWPORT);
    const fits = async (path: string, status = 200) => {
      expect([path, await visit(page, path)]).toEqual([path, status]);
      const { scrollWidth, headerWidth, viewportWidth } = await layoutWidths(page);
      expect(viewportWidth).toBe(NARROW_VIEWPORT.width);
      // document.scrollWidth ≤ 390 (nothing sticks out to scroll to), and the header spans the screen.
      expect({ path, overflow: Math.max(0, scrollWidth - NARROW_VIEWPORT.width), headerWidth }).toEqual({
        path,
        overflow: 0,
        headerWidth: pathOf(page).startsWith('/dashboard/sign-in') ? null : NARROW_VIEWPORT.width,
      });
    };
    await fits('/dashboard/sign-in');
    await signIn(page, owner);
    for (const path of [
      '/dashboard',
      '/dashboard/keys',
      '/dashboard/runs',
      `/dashboard/runs/${run.run_id}`,
      '/dashboard/usage',
      '/dashboard/vault',
      '/dashboard/vault/extractions',
      '/dashboard/vault/fill',
      '/dashboard/vault/audit',
    ]) {
      await fits(path);
    }
    expect(tab.problems).toEqual(NO_PROBLEMS);
    // The 404 page too (its status shows in the console, as for any 404 document).
    await fits('/dashboard/no-such-page', 404);

    await visit(page, '/dashboard/runs');
    await screenshot(page, 'narrow-runs', { viewport: NARROW_VIEWPORT });
    await visit(page, `/dashboard/runs/${run.run_id}`);
    await screenshot(page, 'narrow-run-completed', { viewport: NARROW_VIEWPORT });
    await visit(page, '/dashboard');
    await screenshot(page, 'narrow-overview', { viewport: NARROW_VIEWPORT });
  });
});
