import { LIST_MAX_LIMIT } from '@svc/contracts';
import { ConflictError, isAppError } from '@svc/errors';
import { type PageContext, PageError, type PageKit, type PageModule } from '../page-kit';
import { NOT_FOUND_TEXT } from '../render';
import { RunDetail } from '../views/runs-detail';
import { type CapabilityChoice, RunsList, runHref } from '../views/runs-list';
import { baseUrlOf, sendArtifact } from './runs-download';
import { idParam, nextRunsHref, runsListRequest } from './runs-query';

/**
 * The capabilities the runs filter offers: the catalog's (the registry's own list, as the API's).
 * The filter is a convenience: with the registry down the page still lists runs, and the filter
 * offers only the capability already chosen.
 */
async function filterChoices(kit: PageKit, ctx: PageContext): Promise<CapabilityChoice[]> {
  try {
    const listed = await kit.deps.registry.search({ limit: LIST_MAX_LIMIT });
    return listed.capabilities.map((capability) => ({ slug: capability.slug, name: capability.name }));
  } catch (err) {
    ctx.res.locals.log?.warn({ err }, 'capability list for the runs filter not available');
    return [];
  }
}

/**
 * Runs (issue 18): GET /runs (filters, cursor pages), GET /runs/:runId (state history, request,
 * result or error, receipt, artifacts), POST /runs/:runId/cancel (`runs:cancel`), GET
 * /runs/:runId/artifacts/:artifactId (the file). Another client's run is the orchestrator's 404.
 */
export const runsPages: PageModule = (kit) => {
  const { orchestrator, uploads } = kit.deps;

  kit.get('/runs', 'runs', async (ctx) => {
    const request = runsListRequest(ctx.req.query);
    const [page, capabilities] = await Promise.all([
      orchestrator.listRuns({ ...request.query, client_id: ctx.account.clientId }),
      filterChoices(kit, ctx),
    ]);
    ctx.render({
      title: 'Runs',
      active: 'runs',
      body: (
        <RunsList
          runs={page.runs}
          filters={request.filters}
          capabilities={capabilities}
          nextHref={nextRunsHref(request.filters, page.next_cursor)}
        />
      ),
    });
  });

  kit.get('/runs/:runId', 'runs', async (ctx) => {
    const clientId = ctx.account.clientId;
    const run = await orchestrator.getRun({ client_id: clientId, run_id: idParam(ctx.req.params.runId) });
    const [timeline, receipt, listed] = await Promise.all([
      orchestrator.runTimeline({ client_id: clientId, run_id: run.run_id }),
      orchestrator.receipt({ client_id: clientId, run_id: run.run_id }),
      uploads.listArtifacts({ client_id: clientId, run_id: run.run_id, base_url: baseUrlOf(kit, ctx) }),
    ]);
    ctx.render({
      title: `Run of ${run.slug}`,
      active: 'runs',
      body: (
        <RunDetail
          run={run}
          events={timeline.events}
          input={timeline.input}
          receipt={receipt}
          artifacts={listed.artifacts}
          canCancel={ctx.can('runs:cancel')}
          csrfToken={ctx.csrfToken}
        />
      ),
    });
  });

  kit.post('/runs/:runId/cancel', 'runs:cancel', async (ctx) => {
    const runId = idParam(ctx.req.params.runId);
    try {
      const answer = await orchestrator.cancelRun({ client_id: ctx.account.clientId, run_id: runId });
      const done = answer.outcome === 'cancelled';
      ctx.redirect(
        runHref(runId),
        done ? 'The run is cancelled.' : 'Cancellation requested: the run stops at its next check.',
      );
    } catch (err) {
      // Finished meanwhile (409): back to the run, which shows its final state.
      if (err instanceof ConflictError || (isAppError(err) && err.status === 409)) {
        ctx.redirect(runHref(runId), `The run was not cancelled: ${err.message}`);
        return;
      }
      throw err;
    }
  });

  kit.get('/runs/:runId/artifacts/:artifactId', 'runs', async (ctx) => {
    const clientId = ctx.account.clientId;
    const run = await orchestrator.getRun({ client_id: clientId, run_id: idParam(ctx.req.params.runId) });
    const artifactId = idParam(ctx.req.params.artifactId);
    const { artifacts } = await uploads.listArtifacts({
      client_id: clientId,
      run_id: run.run_id,
      base_url: baseUrlOf(kit, ctx),
    });
    const artifact = artifacts.find((candidate) => candidate.artifact_id === artifactId);
    if (artifact === undefined) throw new PageError(404, NOT_FOUND_TEXT);
    await sendArtifact(kit, ctx, artifact);
  });
};
