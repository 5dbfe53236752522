import { randomUUID } from 'node:crypto';
import { CrtCompletedRunResponse, RunStatusResponse } from '@svc/contracts';
import { type AppHarness, OTHER_CLIENT_ID, startAppHarness } from './support/app-harness';
import { errorOf, getRun, runCrt } from './support/run-requests';

/** GET /api/capability-runs/{run_id} through the app factory and the real orchestrator's handlers. */

describe('run status route (real orchestrator handlers)', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    app.platform.crt.outcome = 'complete';
    app.platform.rpc.clearFaults();
  });

  describe('GET /api/capability-runs/{run_id}', () => {
    it("404 for another client's run, the same answer as for a missing run", async () => {
      const foreign = await app.runs.completedCrtRun(OTHER_CLIENT_ID, {
        apex: 'example.com',
        include_first_seen: false,
        limit: 10,
      });
      const missing = randomUUID();
      const theirs = await getRun(app, `/api/capability-runs/${foreign}`);
      const nobody = await getRun(app, `/api/capability-runs/${missing}`);
      expect([theirs.status, nobody.status]).toEqual([404, 404]);
      expect(await errorOf(theirs)).toBe(`unknown run: ${foreign}`);
      expect(await errorOf(nobody)).toBe(`unknown run: ${missing}`);
      // Its owner does see it.
      const owner = await getRun(app, `/api/capability-runs/${foreign}`, app.keys.otherRunner);
      expect(owner.status).toBe(200);
      expect(RunStatusResponse.parse(await owner.json()).run_id).toBe(foreign);
    });

    it('a run started through POST is visible to its owner only', async () => {
      const started = CrtCompletedRunResponse.parse(
        await (await runCrt(app, { body: { input: { apex: 'example.com' } } })).json(),
      );
      const mine = await getRun(app, `/api/capability-runs/${started.run_id}`);
      expect(mine.status).toBe(200);
      const body = RunStatusResponse.parse(await mine.json());
      expect(body).toMatchObject({
        ok: true,
        run_id: started.run_id,
        status: 'completed',
        result: started.result,
      });
      expect(body.error).toBeUndefined();
      const other = await getRun(app, `/api/capability-runs/${started.run_id}`, app.keys.otherRunner);
      expect(other.status).toBe(404);
    });

    it.each(['not-a-uuid', '123', `${randomUUID()}x`])(
      '422 "run_id: …" for %s, without an orchestrator call',
      async (id) => {
        const calls = app.requests('orchestrator', 'getRun').length;
        const response = await getRun(app, `/api/capability-runs/${id}`);
        expect(response.status).toBe(422);
        expect(await errorOf(response)).toBe('run_id: must be a UUID');
        expect(app.requests('orchestrator', 'getRun').length).toBe(calls);
      },
    );

    it('401 without a key, 403 without capabilities:run, 503 when the orchestrator is down', async () => {
      const path = `/api/capability-runs/${randomUUID()}`;
      expect((await app.fetch(path)).status).toBe(401);
      const forbidden = await getRun(app, path, app.keys.plain);
      expect(forbidden.status).toBe(403);
      await forbidden.arrayBuffer();
      app.platform.rpc.down('orchestrator');
      const down = await getRun(app, path);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('2');
      await down.arrayBuffer();
    });

    it('405 with Allow for other methods', async () => {
      const response = await app.fetch(`/api/capability-runs/${randomUUID()}`, { method: 'DELETE' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      await response.arrayBuffer();
    });
  });
});
