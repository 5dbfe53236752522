import { ListRunsResponse } from '@svc/contracts';
import { type AppHarness, CLIENT_ID, OTHER_CLIENT_ID, startAppHarness } from './support/app-harness';
import { errorOf, getRun } from './support/run-requests';

/** GET /api/capability-runs through the app factory and the real orchestrator's handlers (issue 18). */

const INPUT = { apex: 'example.com', include_first_seen: false, limit: 10 };

describe('run list route (real orchestrator handlers)', () => {
  let app: AppHarness;
  const mine: string[] = [];
  let theirs = '';
  beforeAll(async () => {
    app = await startAppHarness();
    for (let index = 0; index < 5; index += 1) mine.push(await app.runs.completedCrtRun(CLIENT_ID, INPUT));
    theirs = await app.runs.completedCrtRun(OTHER_CLIENT_ID, INPUT);
  });
  afterAll(() => app.close());
  beforeEach(() => app.platform.rpc.clearFaults());

  it("lists the key's client's runs only, page by page with next_cursor, no-store", async () => {
    const seen: string[] = [];
    let path = '/api/capability-runs?limit=2';
    for (let pages = 0; pages < 5; pages += 1) {
      const response = await getRun(app, path);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toContain('no-store');
      const page = ListRunsResponse.parse(await response.json());
      seen.push(...page.runs.map((run) => run.run_id));
      if (page.next_cursor === null) break;
      path = `/api/capability-runs?limit=2&cursor=${page.next_cursor}`;
    }
    expect(seen.sort()).toEqual([...mine].sort());
    expect(seen).not.toContain(theirs);
    expect(app.requests('orchestrator', 'listRuns').at(-1)).toMatchObject({ client_id: CLIENT_ID });
  });

  it('passes the parsed filters to the orchestrator', async () => {
    const response = await getRun(
      app,
      '/api/capability-runs?state=completed&capability=crt&created_from=2026-01-01T00:00:00Z&created_to=2099-01-01T00:00:00Z',
    );
    expect(response.status).toBe(200);
    expect(ListRunsResponse.parse(await response.json()).runs).toHaveLength(5);
    expect(app.requests('orchestrator', 'listRuns').at(-1)).toEqual({
      client_id: CLIENT_ID,
      state: 'completed',
      capability: 'crt',
      created_from: '2026-01-01T00:00:00Z',
      created_to: '2099-01-01T00:00:00Z',
      limit: 25,
    });
  });

  it.each([
    ['state=done', 'state:'],
    ['limit=0', 'limit:'],
    ['limit=101', 'limit:'],
    ['created_from=yesterday', 'created_from:'],
    ['cursor=not%20a%20cursor', 'cursor:'],
    ['page=2', 'page'],
  ])('422 for %s, without an orchestrator call', async (query, named) => {
    const calls = app.requests('orchestrator', 'listRuns').length;
    const response = await getRun(app, `/api/capability-runs?${query}`);
    expect(response.status).toBe(422);
    expect(await errorOf(response)).toContain(named);
    expect(app.requests('orchestrator', 'listRuns')).toHaveLength(calls);
  });

  it("passes the orchestrator's 422 for a cursor it did not make", async () => {
    const response = await getRun(app, '/api/capability-runs?cursor=bm90LWEtcnVu');
    expect(response.status).toBe(422);
    expect(await errorOf(response)).toBe('cursor: must be a next_cursor of a previous page');
  });

  it('401 without a key, 403 without capabilities:run, 503 when the orchestrator is down', async () => {
    expect((await app.fetch('/api/capability-runs')).status).toBe(401);
    const forbidden = await getRun(app, '/api/capability-runs', app.keys.plain);
    expect(forbidden.status).toBe(403);
    await forbidden.arrayBuffer();
    app.platform.rpc.down('orchestrator');
    const down = await getRun(app, '/api/capability-runs');
    expect(down.status).toBe(503);
    await down.arrayBuffer();
  });
});
