import { ConflictError, isAppError } from '@svc/errors';
import { PageError, type PageKit, type PageModule } from '../page-kit';
import { NOT_FOUND_TEXT } from '../render';
import { RunDetail } from '../views/runs-detail';
import { RunsList, runHref } from '../views/runs-list';
import { baseUrlOf, sendArtifact } from './runs-download';
import { idParam, nextRunsHref, runsListRequest } from './runs-query';

/**
 * Runs (issue 18): GET /runs (filters, cursor pages), GET /runs/:runId (state history, request,
 * result or error, receipt, artifacts), POST /runs/:runId/cancel (`runs:cancel`), GET
 * /runs/:runId/artifacts/:artifactId (the file). Another client's run is the orchestrator's 404.
 */
export const runsPages: PageModule = (router, kit: PageKit) => {
  const { orchestrator, uploads } = kit.deps;

  router.get(
    '/runs',
    kit.page('runs', async (ctx) => {
      const request = runsListRequest(ctx.req.query);
      const page = await orchestrator.listRuns(ctx.account.clientId, request.query);
      ctx.render({
        title: 'Runs',
        active: 'runs',
        body: (
          <RunsList
            runs={page.runs}
            filters={request.filters}
            nextHref={nextRunsHref(request.filters, page.next_cursor)}
          />
        ),
      });
    }),
  );

  router.get(
    '/runs/:runId',
    kit.page('runs', async (ctx) => {
      const clientId = ctx.account.clientId;
      const run = await orchestrator.getRun(clientId, idParam(ctx.req.params.runId));
      const [timeline, receipt, listed] = await Promise.all([
        orchestrator.runTimeline(clientId, run.run_id),
        orchestrator.receipt(clientId, run.run_id),
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
    }),
  );

  router.post(
    '/runs/:runId/cancel',
    kit.page('runs:cancel', async (ctx) => {
      const runId = idParam(ctx.req.params.runId);
      try {
        const answer = await orchestrator.cancelRun(ctx.account.clientId, runId);
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
    }),
  );

  router.get(
    '/runs/:runId/artifacts/:artifactId',
    kit.page('runs', async (ctx) => {
      const clientId = ctx.account.clientId;
      const run = await orchestrator.getRun(clientId, idParam(ctx.req.params.runId));
      const artifactId = idParam(ctx.req.params.artifactId);
      const { artifacts } = await uploads.listArtifacts({
        client_id: clientId,
        run_id: run.run_id,
        base_url: baseUrlOf(kit, ctx),
      });
      const artifact = artifacts.find((candidate) => candidate.artifact_id === artifactId);
      if (artifact === undefined) throw new PageError(404, NOT_FOUND_TEXT);
      await sendArtifact(kit, ctx, artifact);
    }),
  );
};
