import { loadKeyringFile, removeKeyVersion } from '@svc/vault-crypto';
import type { VaultClient } from './vault-rotation';

export interface VaultRetireKeyOutput {
  keyring_file: string;
  retired: number;
  /** The versions left in the file. */
  versions: number[];
}

/**
 * Removes `version` from the keyring file, only when the running vault reports no stored data key
 * under it (and it is not current): values wrapped with it could never be opened again. After the
 * re-wrap, this is what makes backups from before it unreadable (docs/decisions.md VL6).
 */
export async function vaultRetireKey(
  vault: VaultClient,
  file: string,
  version: number,
): Promise<VaultRetireKeyOutput> {
  const state = await vault.rotationStatus({});
  if (state.current_version === version) {
    throw new Error(`version ${version} is the vault's current version; add a newer one and rotate first`);
  }
  const left = state.data_keys_by_version[String(version)] ?? 0;
  if (left > 0) {
    throw new Error(
      `${left} stored data key(s) are still wrapped by version ${version}: run \`pnpm admin vault rotate --wait\` first; nothing was removed`,
    );
  }
  removeKeyVersion(file, version);
  return { keyring_file: file, retired: version, versions: [...loadKeyringFile(file).keyring.versions] };
}
