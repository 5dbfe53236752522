import { RunIdParams } from '@svc/contracts';
import { Router } from 'express';
import type { RouteKit } from '../app';
import { runStatusBody } from '../domain/crt-run-answer';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import { authOf } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { parseRequest } from '../middleware/validate';

/**
 * Run status, spec §4.8 (design "Flow" step 6). Mounted at /api/capability-runs. A malformed run id
 * is 422 `run_id: must be a UUID` without an orchestrator call; a run of another client is the
 * orchestrator's 404 `unknown run: <id>`, the same as for a run that does not exist (spec §5.5).
 * Artifacts, cancel and receipt (§4.9–§4.11) join this router in later issues.
 */
export function capabilityRunsRouter(kit: RouteKit, orchestrator: RunOrchestrator): Router {
  const router = Router();

  defineRoute(router, '/:run_id', {
    get: [
      kit.requireAuth('capabilities:run'),
      async (req, res) => {
        // A run changes until it is terminal, and it is private to its client.
        res.setHeader('Cache-Control', 'no-store');
        const params = parseRequest(RunIdParams, req.params);
        const run = await orchestrator.getRun(authOf(res).clientId, params.run_id);
        res.json(runStatusBody(run));
      },
    ],
  });

  return router;
}
