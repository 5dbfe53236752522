import { McpArtifactsTool, McpCancelTool, McpStatusTool } from '@svc/contracts';
import { artifactManifest } from '../../domain/artifact-manifest';
import { cancelAnswer, runStatusBody } from '../../domain/run-answers';
import { defineTool } from '../tool-kit';
import { plural } from './args';

/** `svc_tool_status` = GET /api/capability-runs/{run_id} (spec §4.8). */
export const statusTool = defineTool({
  ...McpStatusTool,
  call: async ({ run_id }, context) => {
    const { orchestrator } = context.services;
    const body = runStatusBody(await orchestrator.getRun({ client_id: context.auth.clientId, run_id }));
    return { summary: `run ${run_id} is ${body.status}`, body };
  },
});

/** `svc_tool_cancel` = POST /api/capability-runs/{run_id}/cancel (spec §4.10). */
export const cancelTool = defineTool({
  ...McpCancelTool,
  call: async ({ run_id }, context) => {
    const { orchestrator } = context.services;
    const cancelled = await orchestrator.cancelRun({ client_id: context.auth.clientId, run_id });
    const summary =
      cancelled.outcome === 'cancelled'
        ? `run ${run_id} is cancelled`
        : `cancellation of running run ${run_id} requested; poll svc_tool_status`;
    return { summary, body: cancelAnswer(cancelled).body };
  },
});

/** `svc_tool_artifacts` = GET /api/capability-runs/{run_id}/artifacts (spec §4.9). */
export const artifactsTool = defineTool({
  ...McpArtifactsTool,
  call: async ({ run_id }, context) => {
    const body = await artifactManifest(context.services.orchestrator, context.services.uploads, {
      clientId: context.auth.clientId,
      runId: run_id,
      baseUrl: context.baseUrl(),
    });
    return { summary: `run ${run_id} (${body.status}): ${plural(body.count, 'artifact')}`, body };
  },
});
