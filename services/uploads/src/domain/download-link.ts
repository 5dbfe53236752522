import { createHmac, timingSafeEqual } from 'node:crypto';
import { ForbiddenError } from '@svc/errors';

/**
 * Artifact download links (docs/decisions.md A3): `<base>/api/artifacts/<artifact_id>/download
 * ?expires=<unix s>&signature=<sig>`, where sig is base64url (43 chars, no padding) of
 * HMAC-SHA256(ARTIFACT_LINK_SECRET, "<artifact_id>.<client_id>.<expires>"). A link is bound to the
 * client it was listed for and to its expiry; following it also needs that client's API key
 * (gateway), so a leaked link alone downloads nothing.
 */

export interface SignedLink {
  /** Unix seconds after which the link is refused. */
  expires: number;
  signature: string;
}

export function linkSignature(secret: string, artifactId: string, clientId: string, expires: number): string {
  return createHmac('sha256', secret)
    .update(`${artifactId}.${clientId}.${expires}`, 'utf8')
    .digest('base64url');
}

/** A link for `clientId` valid for `ttlMs` from `now` (expiry rounded down to the second). */
export function signLink(
  secret: string,
  artifactId: string,
  clientId: string,
  now: Date,
  ttlMs: number,
): SignedLink {
  const expires = Math.floor((now.getTime() + ttlMs) / 1000);
  return { expires, signature: linkSignature(secret, artifactId, clientId, expires) };
}

/** The public URL of a signed link under the gateway's `baseUrl` (with or without a trailing slash). */
export function downloadUrl(baseUrl: string, artifactId: string, link: SignedLink): string {
  const base = baseUrl.replace(/\/+$/, '');
  const query = new URLSearchParams({ expires: String(link.expires), signature: link.signature });
  return `${base}/api/artifacts/${encodeURIComponent(artifactId)}/download?${query.toString()}`;
}

/**
 * 403 unless `link` was signed for this artifact and client (constant-time comparison), then 403
 * when it has expired. The signature is checked first: an altered expiry must read as not valid,
 * not as expired.
 */
export function verifyLink(
  secret: string,
  artifactId: string,
  clientId: string,
  link: SignedLink,
  now: Date,
): void {
  const expected = Buffer.from(linkSignature(secret, artifactId, clientId, link.expires), 'utf8');
  const presented = Buffer.from(link.signature, 'utf8');
  const valid = presented.length === expected.length && timingSafeEqual(presented, expected);
  if (!valid) throw new ForbiddenError('download link is not valid for this client');
  if (now.getTime() > link.expires * 1000) {
    const at = new Date(link.expires * 1000).toISOString();
    throw new ForbiddenError(`download link expired at ${at}; list the artifacts again for a fresh link`);
  }
}
