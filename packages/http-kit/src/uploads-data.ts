import { pipeline } from 'node:stream';
import type { Request } from 'express';
import { clientGoneSignal } from './client-gone';
import type { EdgeResponse } from './locals';
import {
  callUpstream,
  forwardedHeaders,
  readUpstreamJson,
  relayedError,
  relayHeaders,
  type UpstreamCall,
  type UpstreamExchange,
  type UpstreamTarget,
} from './upstream';

/**
 * The uploads service's internal HTTP server (UPLOADS_URL, the service's DATA_PORT), as the web
 * processes call it: upload bytes (`PUT /internal/uploads/:id`) and artifact downloads (`GET
 * /internal/artifacts/:id/content`). The gateway's API routes and the dashboard's pages share it.
 */

/** UPLOADS_URL and the connect timeout (RPC_TIMEOUT_MS). */
export type UploadsDataTarget = Omit<UpstreamTarget, 'name'>;

/** callUpstream to the uploads service (its errors name it). */
export function callUploadsData(target: UploadsDataTarget, call: UpstreamCall): Promise<UpstreamExchange> {
  return callUpstream({ ...target, name: 'uploads service' }, call);
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
 * Streams one artifact's bytes from the uploads service, which checks the link's signature for
 * this client and artifact and its expiry (403/404 relayed as errors). The API's download route and
 * the dashboard's download pages (which take `expires` and `signature` from a manifest they just
 * listed) both answer with it.
 */
export async function relayArtifactContent(
  data: UploadsDataTarget,
  req: Request,
  res: EdgeResponse,
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
