import { apiOperation } from '@svc/contracts';
import { ClientGoneError, relayArtifactContent, type UploadsDataTarget } from '@svc/http-kit';
import { artifactManifest } from '../domain/artifact-manifest';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { UploadsService } from '../domain/uploads-service';
import { rawRoute, route } from '../routing/route';

/**
 * A run's artifact manifest (spec §4.9) and following one of its download links (spec §4 rule 5).
 *
 * The manifest reads the run first (`orchestrator.getRun`): another client's run is the same 404
 * `unknown run` as a missing one (decisions C7), and the manifest carries its status. Then
 * `uploads.listArtifacts` signs each link for this client on the public base URL. The links are
 * private and short-lived: no-store.
 *
 * The download checks the API key and `artifacts:read`, and the link's shape (strict, D2: a link is
 * used as listed; an extra or malformed parameter is 422); the link's signature (for this client
 * and artifact) and expiry are the uploads service's, which gets the client id in `x-svc-client-id`
 * and answers 403/404 or the bytes. The bytes are streamed through as they arrive, with the
 * upstream's headers (its `Cache-Control: private, no-store` replaces the route's no-store).
 */
export function artifactRoutes(
  orchestrator: RunOrchestrator,
  uploads: UploadsService,
  data: UploadsDataTarget,
) {
  return {
    listRunArtifacts: route(apiOperation('listRunArtifacts'), async ({ auth, params }, context) => ({
      status: 200,
      body: await artifactManifest(orchestrator, uploads, {
        clientId: auth.clientId,
        runId: params.run_id,
        baseUrl: context.baseUrl(),
      }),
    })),
    downloadArtifact: rawRoute(
      apiOperation('downloadArtifact'),
      async ({ auth, params, query }, { req, res }) => {
        try {
          await relayArtifactContent(data, req, res, {
            clientId: auth.clientId,
            artifactId: params.artifact_id,
            ...query,
          });
        } catch (err) {
          if (err instanceof ClientGoneError) return; // nobody to answer; the request log records the abort
          throw err;
        }
      },
    ),
  };
}
