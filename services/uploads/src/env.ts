import { busDatabaseServiceEnv, durationMs, envLoader, intInRange, port } from '@svc/config';
import { refineStorageEnv, storageEnv } from '@svc/storage';
import { z } from 'zod';
import { UPLOAD_SETTING_DEFAULTS } from './domain/settings';

/**
 * ARTIFACT_LINK_SECRET: the HMAC key of artifact download links (docs/decisions.md A3). Required,
 * no default: a guessable key would let anyone forge links. 32+ characters (the launcher writes a
 * random one to `.data/artifact-link-secret`). A plain string: its value is never echoed.
 */
const LinkSecret = z.string().min(32, 'must be at least 32 characters');

/** The uploads service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const UploadsEnv = z
  .object({
    // RPC_TIMEOUT_MS: ms a registry describe may take before a session is 503. HEALTH_PORT (8084: the
    // uploads service's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
    ...busDatabaseServiceEnv(8084),
    // STORAGE_DRIVER (fs | s3), STORAGE_DIR, S3_* (@svc/storage).
    ...storageEnv,
    // The internal HTTP port the gateway streams upload bodies and artifact downloads through
    // (PUT /internal/uploads/:id, GET /internal/artifacts/:id/content); 0 = any free port (tests).
    DATA_PORT: port(8094, { allowZero: true }).describe(
      'Internal HTTP server for upload bytes and artifact downloads, reached only by the gateway (UPLOADS_URL); 0 = any free port.',
    ),
    // ms a session (and its token) accepts the PUT: 15 min (decisions U2).
    UPLOAD_SESSION_TTL_MS: durationMs(UPLOAD_SETTING_DEFAULTS.sessionTtlMs).describe(
      'ms a session (and its token) accepts the PUT.',
    ),
    // ms a complete upload that no run used is kept before its bytes are deleted: 24 h.
    UPLOAD_RETENTION_MS: durationMs(UPLOAD_SETTING_DEFAULTS.retentionMs).describe(
      'ms a complete upload no run used is kept before its bytes are deleted.',
    ),
    // ms after which a PUT's claim is stale (its process died mid-stream) and another PUT may take
    // it over: 10 min, far beyond streaming 256 MiB on a slow link.
    UPLOAD_PUT_TIMEOUT_MS: durationMs(UPLOAD_SETTING_DEFAULTS.putTimeoutMs).describe(
      'ms after which a PUT claim is stale (its process died mid-stream) and another PUT may take it over.',
    ),
    // ms a PUT's body may bring no byte before it is cut with 408, its claim released and nothing
    // kept, so the same token can retry at once; also how long an artifact download may take no
    // byte before it is cut (its file closed): 30 s, far beyond a pause of a working link.
    UPLOAD_IDLE_TIMEOUT_MS: durationMs(UPLOAD_SETTING_DEFAULTS.idleTimeoutMs).describe(
      'ms a PUT body or an artifact download may go without a byte before it is cut (a PUT: 408, claim released).',
    ),
    // ms between two cleanup passes (repeatable job `uploads.cleanup`): 1 min.
    UPLOAD_CLEANUP_INTERVAL_MS: durationMs(60_000).describe(
      'ms between two cleanup passes (repeatable job `uploads.cleanup`).',
    ),
    ARTIFACT_LINK_SECRET: LinkSecret.describe(
      'HMAC key of artifact download links, 32+ characters; no default (`pnpm start` writes one to <DATA_DIR>/artifact-link-secret).',
    ),
    // ms an artifact download link stays valid after listing: 15 min.
    ARTIFACT_LINK_TTL_MS: durationMs(UPLOAD_SETTING_DEFAULTS.linkTtlMs).describe(
      'ms an artifact download link stays valid after listing.',
    ),
    // Days an artifact is kept after its run completed; unset = kept (runs are never deleted today).
    ARTIFACT_RETENTION_DAYS: intInRange(1, 36_500)
      .optional()
      .describe('Days an artifact is kept after its run completed (1-36500); unset: kept.'),
    // ms a registry describe answer is reused for sessions and file checks (as the orchestrator's;
    // also cleared on `catalog.changed`).
    CAPABILITY_CACHE_TTL_MS: durationMs(5_000).describe(
      'ms a registry describe answer is reused for sessions and file checks (also cleared on `catalog.changed`).',
    ),
  })
  .superRefine(refineStorageEnv);
export type UploadsEnv = z.output<typeof UploadsEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadUploadsEnv = envLoader(UploadsEnv);
