import type { ServiceClient } from '@svc/bus';
import { type PlatformCatalog, VAULT_MAX_FIELDS_PER_CLIENT } from '@svc/contracts';
import type { Prisma, PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import type { ObjectStore } from '@svc/storage';
import type { KeyEncryptionKeys } from '@svc/vault-crypto';

/** A Prisma transaction (or the client itself): every domain write takes one. */
export type VaultTx = Prisma.TransactionClient;

/** The vault's tunables (env.ts), in the units the domain uses. */
export interface VaultSettings {
  /** ms a pending extraction (and its encrypted candidates) is kept (VAULT_EXTRACTION_TTL_HOURS). */
  extractionTtlMs: number;
  /** ms a filled document and its artifact are kept (VAULT_DOCUMENT_RETENTION_HOURS). */
  documentRetentionMs: number;
  /** Most fields one client may keep (VAULT_MAX_FIELDS_PER_CLIENT of the contracts). */
  maxFieldsPerClient: number;
}

const HOUR_MS = 3_600_000;

/** Hours VAULT_EXTRACTION_TTL_HOURS and VAULT_DOCUMENT_RETENTION_HOURS default to. */
export const DEFAULT_RETENTION_HOURS = 24;

/** The settings from the two retention variables (env.ts), in ms. */
export function vaultSettings(extractionTtlHours: number, documentRetentionHours: number): VaultSettings {
  return {
    extractionTtlMs: extractionTtlHours * HOUR_MS,
    documentRetentionMs: documentRetentionHours * HOUR_MS,
    maxFieldsPerClient: VAULT_MAX_FIELDS_PER_CLIENT,
  };
}

/** The settings when no variable is set (what tests run the vault with). */
export const VAULT_SETTING_DEFAULTS = vaultSettings(DEFAULT_RETENTION_HOURS, DEFAULT_RETENTION_HOURS);

/**
 * The uploads service as the vault needs it (`rpc.uploads`): documents and templates are uploads of
 * the `vault-document` target; filled documents are registered as artifacts (run_id = the document
 * id) so they are listed and downloaded through client-bound signed links. Errors are the uploads
 * service's AppErrors (404, 409, 422; 503 when it does not answer).
 */
export type UploadsPort = Pick<
  ServiceClient<PlatformCatalog, 'uploads'>,
  'resolveFiles' | 'registerArtifacts' | 'listArtifacts'
>;

/** What the vault's domain functions share. */
export interface VaultDeps {
  prisma: PrismaClient;
  /** Key-encryption keys (the keyring handle's `keys`: always the latest good keyring file). */
  keys: KeyEncryptionKeys;
  /** Object storage (@svc/storage): uploaded documents/templates are read, filled documents written. */
  store: ObjectStore;
  uploads: UploadsPort;
  settings: VaultSettings;
  logger: Logger;
  /** The clock; tests move it. */
  now: () => Date;
}
