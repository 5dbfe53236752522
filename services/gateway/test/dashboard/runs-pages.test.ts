import { randomUUID } from 'node:crypto';
import { DASHBOARD_CSP } from '../../src/dashboard/security';
import { CLIENT_ID, OTHER_CLIENT_ID } from '../support/app-harness';
import { type Browser, type DashboardHarness, signIn, startDashboardHarness } from './support';

/**
 * The runs pages through the app factory (fake orchestrator and uploads service): the list with its
 * filters and cursor pages, the run page, cancel (CSRF, role) and the artifact download relayed from
 * the uploads service's data port. Another client's ids are the 404 page.
 */

const CRT_INPUT = { apex: 'example.com', limit: 100, include_first_seen: false };

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

  /** A queued run of the harness's client (seeded completed, then moved back to queued). */
  function queuedRun(): string {
    const runId = harness.orchestrator.seed(CLIENT_ID, CRT_INPUT);
    harness.orchestrator.setStatus(runId, 'queued', { result: undefined, price_usd: '0.25' });
    return runId;
  }

  beforeAll(async () => {
    harness = await startDashboardHarness();
    for (let i = 0; i < 27; i += 1) mine.push(harness.orchestrator.seed(CLIENT_ID, CRT_INPUT));
    foreign = harness.orchestrator.seed(OTHER_CLIENT_ID, CRT_INPUT);
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
    expect(harness.orchestrator.listRunsCalls.at(-1)).toMatchObject({
      clientId: CLIENT_ID,
      query: { state: 'completed', capability: 'crt' },
    });
  });

  it('turns the UTC day filters into the created range, the last day included', async () => {
    const res = await owner.get('/dashboard/runs?from=2026-11-01&to=2026-11-30');
    expect(res.status).toBe(200);
    expect(harness.orchestrator.listRunsCalls.at(-1)?.query).toEqual({
      created_from: '2026-11-01T00:00:00.000Z',
      created_to: '2026-12-01T00:00:00.000Z',
    });
    const bad = await owner.get('/dashboard/runs?state=sleeping');
    expect(bad.status).toBe(422);
    expect(errorStatus(await bad.text())).toBe('422');
    const badDay = await owner.get('/dashboard/runs?from=yesterday');
    expect(badDay.status).toBe(422);
    const calls = harness.orchestrator.listRunsCalls.length;
    expect((await owner.get('/dashboard/runs?capability=Not%20A%20Slug')).status).toBe(422);
    expect((await owner.get('/dashboard/runs?cursor=%3Cbad%3E')).status).toBe(422);
    expect(harness.orchestrator.listRunsCalls).toHaveLength(calls);
    // A well-formed cursor that is no page's: the orchestrator's 422, shown as a page.
    const stale = await owner.get('/dashboard/runs?cursor=bm9wZQ');
    expect(stale.status).toBe(422);
    expect(errorStatus(await stale.text())).toBe('422');
  });

  it('shows a run: state, history, request, result, receipt lines and artifact links', async () => {
    const runId = mine[0] ?? '';
    harness.orchestrator.setStatus(runId, 'completed', { price_usd: '0.25' });
    const artifactId = harness.uploads.addArtifact(CLIENT_ID, runId, 'report.txt', Buffer.from('hello'));
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
    const theirArtifact = harness.uploads.addArtifact(
      OTHER_CLIENT_ID,
      foreign,
      'secret.txt',
      Buffer.from('x'),
    );
    expect((await owner.get(`/dashboard/runs/${foreign}/artifacts/${theirArtifact}`)).status).toBe(404);
    const otherRun = harness.uploads.addArtifact(CLIENT_ID, mine[1] ?? '', 'b.txt', Buffer.from('b'));
    expect((await owner.get(`/dashboard/runs/${mine[2]}/artifacts/${otherRun}`)).status).toBe(404);
    const cancel = await owner.post(`/dashboard/runs/${foreign}/cancel`);
    expect(cancel.status).toBe(404);
  });

  it('streams an artifact with the uploads service headers and the dashboard CSP', async () => {
    const runId = mine[3] ?? '';
    const artifactId = harness.uploads.addArtifact(
      CLIENT_ID,
      runId,
      'out.txt',
      Buffer.from('artifact bytes'),
    );
    const res = await viewer.get(`/dashboard/runs/${runId}/artifacts/${artifactId}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('artifact bytes');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="out.txt"');
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(res.headers.get('x-internal-storage-key')).toBeNull();
  });

  it('cancels a queued run only with a valid CSRF token', async () => {
    const runId = queuedRun();
    const page = await (await owner.get(`/dashboard/runs/${runId}`)).text();
    expect(page).toContain('data-testid="run-cancel"');

    const forged = await owner.post(`/dashboard/runs/${runId}/cancel`, { _csrf: 'forged' });
    expect(forged.status).toBe(403);
    const missing = await owner.post(`/dashboard/runs/${runId}/cancel`, { _csrf: null });
    expect(missing.status).toBe(403);
    expect(harness.orchestrator.cancels).not.toContain(runId);
    expect((await harness.orchestrator.getRun(CLIENT_ID, runId)).status).toBe('queued');

    const done = await owner.post(`/dashboard/runs/${runId}/cancel`);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`/dashboard/runs/${runId}`);
    expect((await harness.orchestrator.getRun(CLIENT_ID, runId)).status).toBe('cancelled');

    // Finished meanwhile: back to the run with the orchestrator's reason, not an error page.
    const again = await owner.post(`/dashboard/runs/${runId}/cancel`);
    expect(again.status).toBe(303);
  });

  it('refuses cancel to a viewer (403) and shows it no cancel button', async () => {
    const runId = queuedRun();
    const page = await (await viewer.get(`/dashboard/runs/${runId}`)).text();
    expect(page).toContain('data-state="queued"');
    expect(page).not.toContain('data-testid="run-cancel"');
    const refused = await viewer.post(`/dashboard/runs/${runId}/cancel`);
    expect(refused.status).toBe(403);
    expect(errorStatus(await refused.text())).toBe('403');
    expect(harness.orchestrator.cancels).not.toContain(runId);
  });

  it('answers 404 for an artifact id that names nothing', async () => {
    expect((await owner.get(`/dashboard/runs/${mine[4]}/artifacts/${randomUUID()}`)).status).toBe(404);
  });
});
