import { randomUUID } from 'node:crypto';
import { LIST_MAX_LIMIT, rpcCatalog } from '@svc/contracts';
import { pollUntil } from '@svc/testkit';
import { DASHBOARD_CSP } from '../src/security';
import { type Browser, signIn } from './form-browser';
import { CLIENT_ID, OTHER_CLIENT_ID } from './memory-stores';
import { type DashboardHarness, startDashboardHarness } from './support';

/**
 * The runs pages through the app factory over the orchestrator's, wallet's and uploads service's
 * real handlers (support.ts): the list with its filters and cursor pages, the run page, cancel
 * (CSRF, role) and the artifact download relayed from the uploads service's data port. Another
 * client's ids are the 404 page.
 */

const CRT_INPUT = { apex: 'example.com', limit: 100, include_first_seen: false };
/** A pii-redact result of the input `x` (nothing found), as its worker reports it. */
const PII_RESULT = {
  redacted_text: 'x',
  findings: [],
  counts: { email: 0, phone: 0, iban: 0, card: 0 },
  characters: 1,
};

function errorStatus(html: string): string | undefined {
  return /data-testid="error" data-status="(\d+)"/.exec(html)?.[1];
}

function runIds(html: string): string[] {
  return [...html.matchAll(/data-testid="run-row" data-run-id="([^"]+)"/g)].map((match) => match[1] ?? '');
}

describe('dashboard runs pages (server side)', () => {
  let harness: DashboardHarness;
  let owner: Browser;
  let viewer: Browser;
  const mine: string[] = [];
  let foreign: string;

  /** A queued paid run of the harness's client (pii-redact, which no worker of the platform takes). */
  function queuedRun(): Promise<string> {
    return harness.runs.startRun(CLIENT_ID, 'pii-redact', { text: 'x' });
  }
  const cancelsOf = (runId: string) =>
    harness
      .requests('orchestrator', 'cancelRun')
      .filter((request) => JSON.stringify(request).includes(runId));
  const statusOf = async (runId: string) =>
    (await harness.platform.client('orchestrator').getRun({ client_id: CLIENT_ID, run_id: runId })).status;

  beforeAll(async () => {
    harness = await startDashboardHarness();
    // 27 completed crt runs of acme's (the crt worker completes them), one of the other client's.
    for (let i = 0; i < 27; i += 1) mine.push(await harness.runs.completedCrtRun(CLIENT_ID, CRT_INPUT));
    foreign = await harness.runs.completedCrtRun(OTHER_CLIENT_ID, CRT_INPUT);
    owner = await signIn(harness, 'owner@acme.test');
    viewer = await signIn(harness, 'viewer@acme.test');
  });
  afterAll(async () => harness.close());

  it('lists the client runs 25 a page with a next-page link that keeps the filters', async () => {
    const first = await owner.get('/dashboard/runs?state=completed&capability=crt');
    expect(first.status).toBe(200);
    const html = await first.text();
    const page1 = runIds(html);
    expect(page1).toHaveLength(25);
    expect(page1).not.toContain(foreign);
    const next = /data-testid="next-page" [^>]*href="([^"]+)"|href="([^"]+)" data-testid="next-page"/.exec(
      html,
    );
    const href = (next?.[1] ?? next?.[2] ?? '').replaceAll('&amp;', '&');
    expect(href).toMatch(/^\/dashboard\/runs\?state=completed&capability=crt&cursor=/);
    const second = await owner.get(href);
    const page2 = runIds(await second.text());
    expect(page2).toHaveLength(2);
    expect(new Set([...page1, ...page2])).toEqual(new Set(mine));
    expect(harness.requests('orchestrator', 'listRuns').at(-1)).toMatchObject({
      client_id: CLIENT_ID,
      state: 'completed',
      capability: 'crt',
    });
  });

  it('turns the UTC day filters into the created range, the last day included', async () => {
    const res = await owner.get('/dashboard/runs?from=2026-11-01&to=2026-11-30');
    expect(res.status).toBe(200);
    // Those two and nothing else (the page size is the catalog's default, applied by the client).
    expect(harness.requests('orchestrator', 'listRuns').at(-1)).toEqual(
      rpcCatalog.orchestrator.listRuns.request.parse({
        client_id: CLIENT_ID,
        created_from: '2026-11-01T00:00:00.000Z',
        created_to: '2026-12-01T00:00:00.000Z',
      }),
    );
    const bad = await owner.get('/dashboard/runs?state=sleeping');
    expect(bad.status).toBe(422);
    expect(errorStatus(await bad.text())).toBe('422');
    const badDay = await owner.get('/dashboard/runs?from=yesterday');
    expect(badDay.status).toBe(422);
    const calls = harness.requests('orchestrator', 'listRuns').length;
    expect((await owner.get('/dashboard/runs?capability=Not%20A%20Slug')).status).toBe(422);
    expect((await owner.get('/dashboard/runs?cursor=%3Cbad%3E')).status).toBe(422);
    expect(harness.requests('orchestrator', 'listRuns')).toHaveLength(calls);
    // A well-formed cursor that is no page's: the orchestrator's 422, shown as a page.
    const stale = await owner.get('/dashboard/runs?cursor=bm9wZQ');
    expect(stale.status).toBe(422);
    expect(errorStatus(await stale.text())).toBe('422');
  });

  it('shows a run: state, history, request, result, receipt lines and artifact links', async () => {
    // A paid run, completed by its worker and settled: its receipt has a hold and a capture.
    const runId = await queuedRun();
    await harness.runs.claim(CLIENT_ID, runId);
    await harness.runs.report(CLIENT_ID, runId, { event: 'completed', result: PII_RESULT });
    const orchestrator = harness.platform.client('orchestrator');
    await pollUntil(
      async () => (await orchestrator.receipt({ client_id: CLIENT_ID, run_id: runId })).ledger.settled,
      { what: `run ${runId} settled` },
    );
    const artifactId = await harness.runs.addArtifact(CLIENT_ID, runId, 'report.txt', Buffer.from('hello'));
    const res = await owner.get(`/dashboard/runs/${runId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="run-state" data-state="completed"');
    for (const id of ['run-history', 'run-input', 'run-result', 'receipt-lines']) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    expect(html).not.toContain('data-testid="run-error"');
    expect(html.split('data-testid="receipt-line"')).toHaveLength(3); // hold and capture
    expect(html).toContain(
      `href="/dashboard/runs/${runId}/artifacts/${artifactId}" data-testid="artifact-download"`,
    );
    // A finished run offers no cancel.
    expect(html).not.toContain('data-testid="run-cancel"');
  });

  it("answers 404 for another client's run, a malformed id and another run's artifact", async () => {
    const theirs = await owner.get(`/dashboard/runs/${foreign}`);
    expect(theirs.status).toBe(404);
    expect(errorStatus(await theirs.text())).toBe('404');
    expect((await owner.get('/dashboard/runs/not-a-uuid')).status).toBe(404);
    const theirArtifact = await harness.runs.addArtifact(
      OTHER_CLIENT_ID,
      foreign,
      'secret.txt',
      Buffer.from('x'),
    );
    expect((await owner.get(`/dashboard/runs/${foreign}/artifacts/${theirArtifact}`)).status).toBe(404);
    const otherRun = await harness.runs.addArtifact(CLIENT_ID, mine[1] ?? '', 'b.txt', Buffer.from('b'));
    expect((await owner.get(`/dashboard/runs/${mine[2]}/artifacts/${otherRun}`)).status).toBe(404);
    const cancel = await owner.post(`/dashboard/runs/${foreign}/cancel`);
    expect(cancel.status).toBe(404);
  });

  it('streams an artifact with the uploads service headers and the dashboard CSP', async () => {
    const runId = mine[3] ?? '';
    const artifactId = await harness.runs.addArtifact(
      CLIENT_ID,
      runId,
      'out.txt',
      Buffer.from('artifact bytes'),
    );
    // The service's answer with a header that is not on the relay list: it must not reach the browser.
    const forward = harness.uploadsData.handler;
    harness.uploadsData.handler = (req, res, seen) => {
      res.setHeader('x-internal-storage-key', `artifacts/${runId}/out.txt`);
      forward(req, res, seen);
    };
    const res = await viewer.get(`/dashboard/runs/${runId}/artifacts/${artifactId}`).finally(() => {
      harness.uploadsData.reset();
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('artifact bytes');
    // The uploads service's header as it sends it (a plain name needs no quotes).
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=out.txt');
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(res.headers.get('x-internal-storage-key')).toBeNull();
  });

  it('cancels a queued run only with a valid CSRF token', async () => {
    const runId = await queuedRun();
    const page = await (await owner.get(`/dashboard/runs/${runId}`)).text();
    expect(page).toContain('data-testid="run-cancel"');

    const forged = await owner.post(`/dashboard/runs/${runId}/cancel`, { _csrf: 'forged' });
    expect(forged.status).toBe(403);
    const missing = await owner.post(`/dashboard/runs/${runId}/cancel`, { _csrf: null });
    expect(missing.status).toBe(403);
    expect(cancelsOf(runId)).toEqual([]);
    expect(await statusOf(runId)).toBe('queued');

    const done = await owner.post(`/dashboard/runs/${runId}/cancel`);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`/dashboard/runs/${runId}`);
    expect(await statusOf(runId)).toBe('cancelled');

    // Finished meanwhile: back to the run with the orchestrator's reason, not an error page.
    const again = await owner.post(`/dashboard/runs/${runId}/cancel`);
    expect(again.status).toBe(303);
  });

  it('refuses cancel to a viewer (403) and shows it no cancel button', async () => {
    const runId = await queuedRun();
    const page = await (await viewer.get(`/dashboard/runs/${runId}`)).text();
    expect(page).toContain('data-state="queued"');
    expect(page).not.toContain('data-testid="run-cancel"');
    const refused = await viewer.post(`/dashboard/runs/${runId}/cancel`);
    expect(refused.status).toBe(403);
    expect(errorStatus(await refused.text())).toBe('403');
    expect(cancelsOf(runId)).toEqual([]);
    expect(await statusOf(runId)).toBe('queued');
  });

  it('answers 404 for an artifact id that names nothing', async () => {
    expect((await owner.get(`/dashboard/runs/${mine[4]}/artifacts/${randomUUID()}`)).status).toBe(404);
  });
});

/** Moved here from run-pages-reading.test.ts (issue 23 item 12): it needs the services behind the page. */
describe('the capability filter, a list', () => {
  let harness: DashboardHarness;
  /** The slugs the registry lists, ordered by the capabilities' names (what the filter offers). */
  let catalog: string[];
  beforeAll(async () => {
    harness = await startDashboardHarness();
    const listed = await harness.platform.client('registry').search({ limit: LIST_MAX_LIMIT });
    catalog = [...listed.capabilities]
      .sort((a, b) => a.name.localeCompare(b.name, 'en'))
      .map((capability) => capability.slug);
  });
  afterAll(async () => harness.close());

  function options(html: string): string[] {
    const select = /<select name="capability"[^>]*>(.*?)<\/select>/.exec(html)?.[1] ?? '';
    // preact writes an empty value as a bare `value`.
    return [...select.matchAll(/<option value(?:="([^"]*)")?( selected)?>/g)].map(
      (m) => `${m[1] ?? ''}${m[2] ?? ''}`,
    );
  }

  it("offers the catalog's capabilities by name, and keeps a chosen one the catalog no longer lists", async () => {
    await harness.runs.completedCrtRun(CLIENT_ID, CRT_INPUT);
    expect(catalog).toContain('crt');
    const owner = await signIn(harness, 'owner@acme.test');
    const html = await (await owner.get('/dashboard/runs')).text();
    expect(html).not.toContain('<input type="text" name="capability"');
    expect(options(html)).toEqual([' selected', ...catalog]);
    expect(html).toMatch(/<option value="crt">[^<]+\(crt\)<\/option>/);

    const chosen = await (await owner.get('/dashboard/runs?capability=crt')).text();
    expect(options(chosen)).toEqual(['', ...catalog.map((slug) => (slug === 'crt' ? 'crt selected' : slug))]);
    const retired = await (await owner.get('/dashboard/runs?capability=old-thing')).text();
    expect(options(retired)).toEqual(['', ...catalog, 'old-thing selected']);
  });

  it('still lists the runs when the catalog does not answer', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    harness.platform.rpc.down('registry');
    try {
      const res = await owner.get('/dashboard/runs?capability=crt');
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('data-testid="run-row"');
      expect(options(html)).toEqual(['', 'crt selected']);
    } finally {
      harness.platform.rpc.up('registry');
    }
  });
});
