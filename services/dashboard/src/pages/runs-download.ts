import { type Artifact, ArtifactDownloadQuery } from '@svc/contracts';
import { InternalError } from '@svc/errors';
import { ClientGoneError, createPublicBaseUrl, relayArtifactContent } from '@svc/http-kit';
import type { PageContext, PageKit } from '../page-kit';

/** The base the uploads service signs links on (only their query is used here). */
export function baseUrlOf(kit: PageKit, ctx: PageContext): string {
  return createPublicBaseUrl(kit.deps.publicBaseUrl)(ctx.req);
}

/**
 * Streams an artifact (a run's, or a filled document's) listed for the signed-in client moments
 * ago: the manifest's signed link gives `expires` and `signature`, and the API's own relay
 * (@svc/http-kit's relayArtifactContent) fetches the bytes from the uploads service, which checks
 * them again.
 */
export async function sendArtifact(kit: PageKit, ctx: PageContext, artifact: Artifact): Promise<void> {
  const link = new URL(artifact.download_url);
  const query = ArtifactDownloadQuery.safeParse(Object.fromEntries(link.searchParams));
  if (!query.success)
    throw new InternalError(`artifact ${artifact.artifact_id} was listed without a signed link`);
  try {
    await relayArtifactContent(kit.deps.uploadsData, ctx.req, ctx.res, {
      clientId: ctx.account.clientId,
      artifactId: artifact.artifact_id,
      ...query.data,
    });
  } catch (err) {
    if (err instanceof ClientGoneError) return; // nobody to answer; the request log records the abort
    throw err;
  }
}
