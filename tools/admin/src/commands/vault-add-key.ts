import { addKeyVersion } from '@svc/vault-crypto';

export interface VaultAddKeyOutput {
  keyring_file: string;
  /** The version added. */
  version: number;
  /** The keyring's current version now (the added one unless --keep-current). */
  current_version: number;
}

/**
 * Adds a key version to the keyring file (atomic rewrite, mode 0600; @svc/vault-crypto). Running
 * vaults pick it up within their poll interval; `vault rotate` then moves every data key to it.
 * Never prints key material.
 */
export function vaultAddKey(file: string, keepCurrent: boolean): VaultAddKeyOutput {
  const added = addKeyVersion(file, { makeCurrent: !keepCurrent });
  return { keyring_file: file, version: added.version, current_version: added.currentVersion };
}
