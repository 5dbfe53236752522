import { z } from 'zod';
import { ArtifactDownloadQuery, ArtifactIdParams, ArtifactManifestResponse } from '../artifacts';
import { Sha256Hex } from '../common';
import { RunIdParams } from '../run';
import { defineOperation } from './operation-types';

/** Headers of a download a client may rely on (what the uploads service sets and the gateway relays). */
export const ArtifactDownloadHeaders = z.object({
  'Content-Length': z.string().describe('Size of the artifact in bytes.'),
  'Content-Disposition': z.string().describe('`attachment` with the artifact name as filename (RFC 6266).'),
  ETag: z.string().describe('The SHA-256 of the bytes in quotes: "<sha256>".'),
  'X-Checksum-Sha256': Sha256Hex.describe('SHA-256 of the bytes, lowercase hex (as in the manifest).'),
  'Cache-Control': z.literal('private, no-store'),
  'X-Content-Type-Options': z.literal('nosniff'),
});

/** Spec §4.9 and rule 5: a run's artifact manifest, and following one of its download links. */
export const artifactOperations = [
  defineOperation({
    method: 'get',
    path: '/api/capability-runs/{run_id}/artifacts',
    operationId: 'listRunArtifacts',
    summary: 'Artifact manifest of a run',
    description:
      'The files a run produced, ordered by name, each with its size, SHA-256 and a download link signed ' +
      'for the calling client that expires at `download_expires_at` (15 minutes); list again for fresh ' +
      'links. A run without artifacts (yet) answers an empty list. A run of another client answers the ' +
      'same 404 as a run that does not exist.',
    tags: ['artifacts'],
    auth: { kind: 'key', scopes: ['artifacts:read'] },
    params: { path: RunIdParams },
    success: {
      status: 200,
      description: 'The manifest (`Cache-Control: no-store`: the links are private and short-lived).',
      schema: ArtifactManifestResponse,
    },
    errors: [401, 403, 404, 422, 500, 503],
  }),
  defineOperation({
    method: 'get',
    path: '/api/artifacts/{artifact_id}/download',
    operationId: 'downloadArtifact',
    rateLimit: 'transfers',
    summary: 'Download an artifact (a link from the manifest)',
    description:
      "Follow a `download_url` of the manifest as is, with the same client's API key. The link is signed " +
      'for that client and artifact and expires; the answer streams the bytes with their content type, ' +
      'length, `Content-Disposition: attachment` and checksum headers.',
    tags: ['artifacts'],
    auth: { kind: 'key', scopes: ['artifacts:read'] },
    params: { path: ArtifactIdParams, query: ArtifactDownloadQuery },
    success: {
      status: 200,
      description: 'The bytes of the artifact, in its content type.',
      binary: ['*/*'],
      headers: ArtifactDownloadHeaders,
    },
    errors: [401, 403, 404, 422, 500, 503],
    errorNotes: {
      403:
        'The key lacks `artifacts:read`, the link is not valid for this client (tampered or listed by ' +
        'another client), or it expired: list the artifacts again for a fresh link.',
      404: 'Unknown artifact (or deleted by retention).',
      422: 'Malformed artifact_id, or a link without a well-formed `expires` and `signature`.',
    },
  }),
] as const;
