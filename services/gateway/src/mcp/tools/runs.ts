import { ArtifactManifestResponse, CancelRunResponse, RunIdParams, RunStatusResponse } from '@svc/contracts';
import { artifactManifest } from '../../domain/artifact-manifest';
import { cancelAnswer, runStatusBody } from '../../domain/run-answers';
import { defineTool } from '../tool-kit';
import { plural, READ_ONLY } from './args';

/** `svc_tool_status` = GET /api/capability-runs/{run_id} (spec §4.8). */
export const statusTool = defineTool({
  name: 'svc_tool_status',
  title: 'Run status',
  description:
    'Step 5: the run as it stands: status (queued, running, retrying, completed, failed, cancelled), ' +
    'result when completed, error when failed. Poll until the status is final; then list files with ' +
    'svc_tool_artifacts.',
  scope: 'capabilities:run',
  input: RunIdParams,
  output: RunStatusResponse,
  annotations: READ_ONLY,
  call: async ({ run_id }, context) => {
    const body = runStatusBody(await context.services.orchestrator.getRun(context.auth.clientId, run_id));
    return { summary: `run ${run_id} is ${body.status}`, body };
  },
});

/** `svc_tool_cancel` = POST /api/capability-runs/{run_id}/cancel (spec §4.10). */
export const cancelTool = defineTool({
  name: 'svc_tool_cancel',
  title: 'Cancel a run',
  description:
    'Cancels a queued run at once; for a running run a cooperative cancellation is requested (it ends ' +
    'cancelled, or completed if it finished first). A finished run cannot be cancelled.',
  scope: 'capabilities:run',
  input: RunIdParams,
  output: CancelRunResponse,
  // idempotentHint in MCP's sense (a repeat has no further effect), though a repeat is an error
  // result: REST answers 409 `run … is already cancelled`, and a running run keeps its first
  // cancel_requested_at.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  call: async ({ run_id }, context) => {
    const cancelled = await context.services.orchestrator.cancelRun(context.auth.clientId, run_id);
    const summary =
      cancelled.outcome === 'cancelled'
        ? `run ${run_id} is cancelled`
        : `cancellation of running run ${run_id} requested; poll svc_tool_status`;
    return { summary, body: cancelAnswer(cancelled).body };
  },
});

/** `svc_tool_artifacts` = GET /api/capability-runs/{run_id}/artifacts (spec §4.9). */
export const artifactsTool = defineTool({
  name: 'svc_tool_artifacts',
  title: 'List run artifacts',
  description:
    'The files a completed run produced, with size, SHA-256 and a short-lived download link ' +
    "(GET it with the same API key's Authorization header).",
  scope: 'artifacts:read',
  input: RunIdParams,
  output: ArtifactManifestResponse,
  annotations: READ_ONLY,
  call: async ({ run_id }, context) => {
    const body = await artifactManifest(context.services.orchestrator, context.services.uploads, {
      clientId: context.auth.clientId,
      runId: run_id,
      baseUrl: context.baseUrl(),
    });
    return { summary: `run ${run_id} (${body.status}): ${plural(body.count, 'artifact')}`, body };
  },
});
