import { ListRunsQuery, RunIdParams } from '@svc/contracts';
import { Router } from 'express';
import { cancelAnswer, runStatusBody, sendAnswer } from '../domain/run-answers';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import { authOf } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { noStore } from '../middleware/no-store';
import { parseRequest } from '../middleware/validate';
import type { RouteKit } from '../route-kit';

/**
 * Run status, cancel and receipt: spec §4.8, §4.10, §4.11. Mounted at /api/capability-runs. A
 * malformed run id is 422 `run_id: must be a UUID` without an orchestrator call; a run of another
 * client is the orchestrator's 404 `unknown run: <id>`, the same as for a run that does not exist
 * (spec §5.5, decisions C7). Every answer is about one client's run as it stands: `no-store`.
 * A run's artifacts (§4.9) are listed by artifacts.ts, mounted at the same path. `GET /` lists the
 * client's runs (issue 18): the orchestrator filters by owner, so another client's run never appears.
 */
export function capabilityRunsRouter(kit: RouteKit, orchestrator: RunOrchestrator): Router {
  const router = Router();

  // Same scope as run status: listing runs is reading one's own runs. 422 for a bad query here; for
  // a cursor that is not a next_cursor or an empty created range, the orchestrator's 422.
  defineRoute(router, '/', {
    get: [
      noStore,
      kit.requireAuth('capabilities:run'),
      async (req, res) => {
        const query = parseRequest(ListRunsQuery, req.query);
        res.json(await orchestrator.listRuns(authOf(res).clientId, query));
      },
    ],
  });

  defineRoute(router, '/:run_id', {
    get: [
      noStore,
      kit.requireAuth('capabilities:run'),
      async (req, res) => {
        const params = parseRequest(RunIdParams, req.params);
        const run = await orchestrator.getRun(authOf(res).clientId, params.run_id);
        res.json(runStatusBody(run));
      },
    ],
  });

  // No request body (spec §4 gaps: none shown): one sent anyway is ignored, never parsed (G2).
  // The scope is the run's own (capabilities:run): stopping a run is part of running it.
  defineRoute(router, '/:run_id/cancel', {
    post: [
      noStore,
      kit.requireAuth('capabilities:run'),
      async (req, res) => {
        const params = parseRequest(RunIdParams, req.params);
        const answer = cancelAnswer(await orchestrator.cancelRun(authOf(res).clientId, params.run_id));
        sendAnswer(res, answer);
      },
    ],
  });

  // Money: billing:read, like the balance. A key that may run but not read billing sees the run
  // through GET /{run_id} (its price_usd included), not its ledger lines.
  defineRoute(router, '/:run_id/receipt', {
    get: [
      noStore,
      kit.requireAuth('billing:read'),
      async (req, res) => {
        const params = parseRequest(RunIdParams, req.params);
        res.json(await orchestrator.receipt(authOf(res).clientId, params.run_id));
      },
    ],
  });

  return router;
}
