import { pipeline } from 'node:stream';
import { ArtifactDownloadQuery, ArtifactIdParams, RunIdParams } from '@svc/contracts';
import { type Request, Router } from 'express';
import { artifactManifest } from '../domain/artifact-manifest';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { UploadsService } from '../domain/uploads-service';
import { authOf, type GatewayResponse } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { noStore } from '../middleware/no-store';
import { parseRequest } from '../middleware/validate';
import type { RouteKit } from '../route-kit';
import { clientGoneSignal } from './client-gone';
import {
  ClientGoneError,
  callUploadsData,
  forwardedHeaders,
  readUpstreamJson,
  relayedError,
  relayHeaders,
  type UploadsDataTarget,
} from './uploads-data-proxy';

/**
 * `GET /api/capability-runs/{run_id}/artifacts` (spec §4.9). Mounted at /api/capability-runs, next
 * to the run routes. The run is read first (`orchestrator.getRun`): another client's run is the same
 * 404 `unknown run` as a missing one (decisions C7), and the manifest carries its status. Then
 * `uploads.listArtifacts` signs each link for this client on the public base URL. The links are
 * private and short-lived: no-store.
 */
export function runArtifactsRouter(
  kit: RouteKit,
  orchestrator: RunOrchestrator,
  uploads: UploadsService,
): Router {
  const router = Router();
  defineRoute(router, '/:run_id/artifacts', {
    get: [
      noStore,
      kit.requireAuth('artifacts:read'),
      async (req, res) => {
        const { run_id } = parseRequest(RunIdParams, req.params);
        const body = await artifactManifest(orchestrator, uploads, {
          clientId: authOf(res).clientId,
          runId: run_id,
          baseUrl: kit.publicBaseUrl(req),
        });
        res.json(body);
      },
    ],
  });
  return router;
}

// Headers of a download the client may rely on (OpenAPI ArtifactDownloadHeaders), as the uploads
// service set them. Its Cache-Control (`private, no-store`) replaces the route's no-store.
const DOWNLOAD_RELAYED = [
  'content-type',
  'content-length',
  'content-disposition',
  'etag',
  'x-checksum-sha256',
  'cache-control',
  'x-content-type-options',
] as const;

/**
 * `GET /api/artifacts/{artifact_id}/download?expires&signature` (spec §4 rule 5: a link from the
 * manifest). Mounted at /api/artifacts. The API key and `artifacts:read` are checked here; the
 * link's signature (for this client and artifact) and expiry by the uploads service, which gets the
 * client id in `x-svc-client-id` and answers 403/404 or the bytes. The bytes are streamed through
 * as they arrive, with the upstream's headers.
 */
export function artifactDownloadRouter(kit: RouteKit, data: UploadsDataTarget): Router {
  const router = Router();
  defineRoute(router, '/:artifact_id/download', {
    get: [
      noStore,
      kit.requireAuth('artifacts:read'),
      async (req, res) => {
        try {
          await downloadArtifact(data, req, res);
        } catch (err) {
          if (err instanceof ClientGoneError) return; // nobody to answer; the request log records the abort
          throw err;
        }
      },
    ],
  });
  return router;
}

async function downloadArtifact(data: UploadsDataTarget, req: Request, res: GatewayResponse): Promise<void> {
  const { artifact_id } = parseRequest(ArtifactIdParams, req.params);
  // Strict (D2): a link is used as listed; an extra or malformed parameter is 422, not ignored.
  const query = parseRequest(ArtifactDownloadQuery, req.query, 'query');
  await relayArtifactContent(data, req, res, {
    clientId: authOf(res).clientId,
    artifactId: artifact_id,
    ...query,
  });
}

/**
 * Streams one artifact's bytes from the uploads service, which checks the link's signature for
 * this client and artifact and its expiry (403/404 relayed as errors). Shared with the dashboard's
 * download routes, which take `expires` and `signature` from a manifest they just listed.
 */
export async function relayArtifactContent(
  data: UploadsDataTarget,
  req: Request,
  res: GatewayResponse,
  link: {
    readonly clientId: string;
    readonly artifactId: string;
    readonly expires: number;
    readonly signature: string;
  },
): Promise<void> {
  const search = new URLSearchParams({ expires: String(link.expires), signature: link.signature });
  const exchange = await callUploadsData(data, {
    method: 'GET',
    path: `/internal/artifacts/${link.artifactId}/content?${search.toString()}`,
    headers: forwardedHeaders(req, res, [], { 'x-svc-client-id': link.clientId }),
    signal: clientGoneSignal(res),
  });
  const { response } = exchange;
  const status = response.statusCode ?? 500;
  if (status !== 200) throw relayedError(status, await readUpstreamJson(response));
  relayHeaders(response, res, DOWNLOAD_RELAYED);
  res.status(200);
  // pipeline destroys both sides on failure: a client that leaves stops the upstream read, and an
  // upstream that breaks mid-file cuts the client's connection (its Content-Length then tells it
  // the file is incomplete). The cause goes on the request's log line.
  await new Promise<void>((resolve) => {
    pipeline(response, res, (err) => {
      if (err && !res.writableFinished) res.locals.failure = err;
      resolve();
    });
  });
}
