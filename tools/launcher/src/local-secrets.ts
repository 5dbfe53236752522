import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `<DATA_DIR>/artifact-link-secret`: the HMAC key of artifact download links for `pnpm start`
 * (docs/decisions.md A3). Made once (32 random bytes, base64url, mode 0600) so links listed before
 * a restart still verify after it; an operator's ARTIFACT_LINK_SECRET wins over the file.
 */
export function artifactLinkSecretPath(dataDir: string): string {
  return path.join(dataDir, 'artifact-link-secret');
}

/** The saved secret, made on first use; a file that is too short to be ours is replaced. */
export function ensureArtifactLinkSecret(file: string): string {
  try {
    const saved = fs.readFileSync(file, 'utf8').trim();
    if (saved.length >= 32) return saved;
  } catch {
    // Not there yet: made below.
  }
  const secret = randomBytes(32).toString('base64url');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
