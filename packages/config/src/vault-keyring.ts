import { z } from 'zod';
import { pathVar } from './helpers';

/**
 * The vault's key-encryption keys (@svc/vault-crypto): exactly one of VAULT_KEYRING_FILE (a JSON file,
 * re-read when it changes, so a new key version needs no restart) and VAULT_KEYRING (the same JSON
 * inline, fixed for the process's life). Both are plain optional strings here: the document is
 * checked by @svc/vault-crypto's keyringFromEnv at start, whose messages name the rule and the key
 * version and never repeat key text (a zod issue could echo the value).
 */
export const vaultKeyringEnv = {
  VAULT_KEYRING_FILE: pathVar()
    .optional()
    .describe(
      'Path of the vault keyring JSON {"current": N, "keys": [{"version": n, "key": "<base64 of 32 bytes>"}]}: ' +
        'key-encryption keys that wrap the data key of every vault value. Re-read within 5 s when it changes ' +
        '(add a version without a restart). Refused when everyone can write it. ' +
        '`pnpm start` makes <DATA_DIR>/vault-keyring.json (0600) once. Set this or VAULT_KEYRING.',
    ),
  VAULT_KEYRING: z
    .string()
    .optional()
    .describe(
      'The vault keyring JSON inline (same shape as the file), instead of VAULT_KEYRING_FILE; read once at start. ' +
        'Never logged.',
    ),
};
