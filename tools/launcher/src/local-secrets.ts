import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets `pnpm start` makes once under DATA_DIR (32 random bytes, mode 0600) and reuses on every
 * start, so what was signed or sealed before a restart still verifies or opens after it. An
 * operator's own variable wins over the file.
 */

/** The saved secret in `file`, made on first use; a file whose content `isValid` refuses is replaced. */
function ensureLocalSecret(
  file: string,
  encoding: BufferEncoding,
  isValid: (saved: string) => boolean,
): string {
  try {
    const saved = fs.readFileSync(file, 'utf8').trim();
    if (isValid(saved)) return saved;
  } catch {
    // Not there yet: made below.
  }
  const secret = randomBytes(32).toString(encoding);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** `<DATA_DIR>/artifact-link-secret`: the HMAC key of artifact download links (docs/decisions.md A3). */
export function artifactLinkSecretPath(dataDir: string): string {
  return path.join(dataDir, 'artifact-link-secret');
}

/** The saved link secret, made on first use; a file that is too short to be ours is replaced. */
export function ensureArtifactLinkSecret(file: string): string {
  return ensureLocalSecret(file, 'base64url', (saved) => saved.length >= 32);
}

/** The saved bus key (base64 of 32 bytes), made on first use; a file that is not one is replaced. */
export function ensureBusEncryptionKey(file: string): string {
  return ensureLocalSecret(
    file,
    'base64',
    (saved) => /^[A-Za-z0-9+/]+={0,2}$/.test(saved) && Buffer.from(saved, 'base64').length === 32,
  );
}
