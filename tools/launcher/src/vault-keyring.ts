import path from 'node:path';
import { vaultKeyringPath } from '@svc/devstack';
import { createKeyringFile, keyringFromEnv, loadKeyringFile } from '@svc/vault-crypto';

/**
 * The vault's keyring under `pnpm start` (docs/decisions.md VC5). The operator's VAULT_KEYRING or
 * VAULT_KEYRING_FILE wins; otherwise `<DATA_DIR>/vault-keyring.json` is made once (version 1, mode
 * 0600) and never overwritten, because the keys in it are the only way to read the values stored
 * under them. Checked here as the vault checks it, so a bad keyring stops the start with its message
 * instead of the vault crash-looping.
 */

export interface VaultKeyringChoice {
  /** VAULT_KEYRING_FILE for the vault (absolute), or undefined: the operator's VAULT_KEYRING is used. */
  file: string | undefined;
  /** The launcher made the file just now (first start). */
  created: boolean;
  /** Worth a warning line (e.g. the file is readable by group/others); never key material. */
  warnings: string[];
}

/**
 * What the vault is given. `inline`/`file` are the operator's VAULT_KEYRING/VAULT_KEYRING_FILE; a
 * relative file is relative to the workspace root (`rootDir`), where the services run. Throws
 * KeyringError (names the variable or file and the rule, never key text).
 */
export function prepareVaultKeyring(options: {
  inline: string | undefined;
  file: string | undefined;
  rootDir: string;
  dataDir: string;
}): VaultKeyringChoice {
  const { inline, file } = options;
  if (inline !== undefined || file !== undefined) {
    const absolute = file === undefined ? undefined : path.resolve(options.rootDir, file);
    const warnings: string[] = [];
    // Loads once (both set, bad JSON, bad mode: a KeyringError), then lets go of the keys.
    const handle = keyringFromEnv(
      { VAULT_KEYRING: inline, VAULT_KEYRING_FILE: absolute },
      { onWarning: (text) => warnings.push(text) },
    );
    // Stops the poll at once (clearInterval); nothing to wait for.
    void handle.close();
    return { file: absolute, created: false, warnings };
  }
  const own = vaultKeyringPath(options.dataDir);
  const { created } = createKeyringFile(own);
  return { file: own, created, warnings: loadKeyringFile(own).warnings };
}
