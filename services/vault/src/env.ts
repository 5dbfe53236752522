import { busDatabaseServiceEnv, durationMs, envLoader, intInRange, vaultKeyringEnv } from '@svc/config';
import { refineStorageEnv, storageEnv } from '@svc/storage';
import { z } from 'zod';
import { DEFAULT_RETENTION_HOURS } from './domain/deps';

/** The vault service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const VaultEnv = z
  .object({
    // RPC_TIMEOUT_MS: ms an uploads call may take before the request is 503. HEALTH_PORT (8085: the
    // vault's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
    ...busDatabaseServiceEnv(8085),
    // VAULT_KEYRING_FILE | VAULT_KEYRING: the key-encryption keys (checked by @svc/vault-crypto at start).
    ...vaultKeyringEnv,
    // STORAGE_DRIVER (fs | s3), STORAGE_DIR, S3_*: documents and templates are read, filled documents
    // written, in the same object storage as the uploads service's (@svc/storage).
    ...storageEnv,
    // Hours a pending extraction and its encrypted candidates are kept before they are destroyed: 24.
    VAULT_EXTRACTION_TTL_HOURS: intInRange(1, 8_760, DEFAULT_RETENTION_HOURS).describe(
      'Hours a pending extraction (its encrypted candidates) is kept before it expires and its ciphertexts are deleted (1-8760).',
    ),
    // Hours a filled document and its artifact are kept: 24.
    VAULT_DOCUMENT_RETENTION_HOURS: intInRange(1, 8_760, DEFAULT_RETENTION_HOURS).describe(
      'Hours a filled document and its artifact are kept before they are deleted (1-8760).',
    ),
    // ms between two sweep passes (repeatable job `vault.sweep`): 1 min.
    VAULT_SWEEP_INTERVAL_MS: durationMs(60_000).describe(
      'ms between two vault sweep passes (repeatable job `vault.sweep`: expires extractions, deletes documents past retention).',
    ),
  })
  .superRefine(refineStorageEnv);
export type VaultEnv = z.output<typeof VaultEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadVaultEnv = envLoader(VaultEnv);
