import { apiOperation } from '@svc/contracts';
import { waitAsPreferred } from '../domain/prefer-wait';
import { cancelAnswer, runStatusBody } from '../domain/run-answers';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { RunWaiting } from '../domain/run-waiter';
import { route } from '../routing/route';

/**
 * Run list, status, cancel and receipt: spec §4.8, §4.10, §4.11 and the run list (issue 18). A
 * malformed run id is 422 `run_id: must be a UUID` without an orchestrator call; a run of another
 * client is the orchestrator's 404 `unknown run: <id>`, the same as for a run that does not exist
 * (spec §5.5, decisions C7); the list is filtered by owner, so another client's run never appears.
 * A run's artifacts (§4.9) are listed by artifacts.ts.
 */
export function capabilityRunRoutes(orchestrator: RunOrchestrator, waiter: RunWaiting) {
  return {
    // Same scope as run status: listing runs is reading one's own runs. 422 for a bad query here; for
    // a cursor that is not a next_cursor or an empty created range, the orchestrator's 422, whose
    // words name the fields bare (`cursor: …`): so do the route's.
    listRuns: route(
      apiOperation('listRuns'),
      async ({ auth, query }) => ({
        status: 200,
        body: await orchestrator.listRuns({ ...query, client_id: auth.clientId }),
      }),
      { bareQueryErrors: true },
    ),
    // With `Prefer: wait=N`, a run still going is waited for up to N s (prefer-wait.ts).
    getRun: route(apiOperation('getRun'), async ({ auth, params, headers }, context) => {
      const run = await orchestrator.getRun({ client_id: auth.clientId, run_id: params.run_id });
      const waited = await waitAsPreferred(waiter, auth.clientId, run, headers.prefer, context.clientGone());
      return { status: 200, headers: waited.headers, body: runStatusBody(waited.run) };
    }),
    // No request body (spec §4 gaps: none shown): one sent anyway is ignored, never parsed (G2).
    // The scope is the run's own (capabilities:run): stopping a run is part of running it.
    cancelRun: route(apiOperation('cancelRun'), async ({ auth, params }) =>
      cancelAnswer(await orchestrator.cancelRun({ client_id: auth.clientId, run_id: params.run_id })),
    ),
    // Money: billing:read, like the balance. A key that may run but not read billing sees the run
    // through GET /{run_id} (its price_usd included), not its ledger lines.
    getRunReceipt: route(apiOperation('getRunReceipt'), async ({ auth, params }) => ({
      status: 200,
      body: await orchestrator.receipt({ client_id: auth.clientId, run_id: params.run_id }),
    })),
  };
}
