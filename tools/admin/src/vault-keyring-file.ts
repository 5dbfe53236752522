import fs from 'node:fs';
import path from 'node:path';
import { dataDirEnv, type EnvSource, loadEnv } from '@svc/config';
import { findWorkspaceRoot, resolveDataDir, vaultKeyringPath } from '@svc/devstack';
import { z } from 'zod';

const keyringEnv = z.object({
  VAULT_KEYRING_FILE: z.string().optional(),
  VAULT_KEYRING: z.string().optional(),
  ...dataDirEnv,
});

/**
 * The keyring file the vault reads: `--keyring` (relative to the current directory), else
 * VAULT_KEYRING_FILE (relative to the workspace root, as the launcher passes it), else the
 * `pnpm start` stack's `<DATA_DIR>/vault-keyring.json`. Throws an Error with operator advice when
 * there is none (an inline VAULT_KEYRING cannot be edited from here).
 */
export function resolveKeyringFile(option: string | null, env: EnvSource, cwd: string): string {
  if (option !== null) return path.resolve(cwd, option);
  const read = loadEnv(keyringEnv, env);
  let root: string | undefined;
  try {
    root = findWorkspaceRoot(cwd);
  } catch {
    root = undefined;
  }
  const file = read.VAULT_KEYRING_FILE?.trim() ?? '';
  if (file !== '') return path.resolve(root ?? cwd, file);
  if ((read.VAULT_KEYRING?.trim() ?? '') !== '') {
    throw new Error(
      'VAULT_KEYRING holds the keyring inline: add the version to that JSON yourself (see README "Vault keys"), or move it to a file (VAULT_KEYRING_FILE)',
    );
  }
  const dataDir = root === undefined ? read.DATA_DIR : resolveDataDir(root, read.DATA_DIR);
  const stackFile = vaultKeyringPath(dataDir);
  if (!fs.existsSync(stackFile)) {
    throw new Error(
      `no vault keyring at ${stackFile}: pass --keyring FILE, set VAULT_KEYRING_FILE, or run \`pnpm start\` once`,
    );
  }
  return stackFile;
}
