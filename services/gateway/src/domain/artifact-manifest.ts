import { ArtifactManifestResponse } from '@svc/contracts';
import { checkedBody } from './contract-body';
import type { RunOrchestrator } from './run-orchestrator';
import type { UploadsService } from './uploads-service';

/**
 * A run's artifact manifest (spec §4.9), for the REST route and the MCP tool `svc_tool_artifacts`.
 * The run is read first (`orchestrator.getRun`): another client's run is the same 404 `unknown run`
 * as a missing one (decisions C7), and the manifest carries its status. Then `uploads.listArtifacts`
 * signs each link for this client on the public base URL.
 */
export async function artifactManifest(
  orchestrator: RunOrchestrator,
  uploads: UploadsService,
  params: { readonly clientId: string; readonly runId: string; readonly baseUrl: string },
): Promise<ArtifactManifestResponse> {
  const { clientId, runId } = params;
  const run = await orchestrator.getRun({ client_id: clientId, run_id: runId });
  const { artifacts } = await uploads.listArtifacts({
    client_id: clientId,
    run_id: runId,
    base_url: params.baseUrl,
  });
  return checkedBody(
    ArtifactManifestResponse,
    { ok: true, run_id: runId, status: run.status, count: artifacts.length, artifacts },
    `artifact manifest of run ${runId}`,
  );
}
