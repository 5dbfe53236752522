import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import type { ObjectStore } from '@svc/storage';
import type { CapabilityDirectory } from './capability-directory';

/** The uploads service's tunables (env.ts), in the units the domain uses. */
export interface UploadSettings {
  /** ms a session accepts its PUT (UPLOAD_SESSION_TTL_MS). */
  sessionTtlMs: number;
  /** ms a complete upload no run used is kept (UPLOAD_RETENTION_MS). */
  retentionMs: number;
  /** ms after which a PUT's claim is stale and may be taken over (UPLOAD_PUT_TIMEOUT_MS). */
  putTimeoutMs: number;
  /** ms a PUT's body or a download may make no progress before it is cut (UPLOAD_IDLE_TIMEOUT_MS). */
  idleTimeoutMs: number;
  /** HMAC key of artifact download links (ARTIFACT_LINK_SECRET, 32+ chars). */
  linkSecret: string;
  /** ms a download link stays valid (ARTIFACT_LINK_TTL_MS). */
  linkTtlMs: number;
  /** Days an artifact is kept (ARTIFACT_RETENTION_DAYS); undefined = kept. */
  artifactRetentionDays?: number;
}

/** What env.ts's variables default to (decisions U2): the service's settings when none is set. */
export const UPLOAD_SETTING_DEFAULTS = {
  sessionTtlMs: 15 * 60_000,
  retentionMs: 24 * 3_600_000,
  putTimeoutMs: 10 * 60_000,
  idleTimeoutMs: 30_000,
  linkTtlMs: 15 * 60_000,
} as const satisfies Omit<UploadSettings, 'linkSecret' | 'artifactRetentionDays'>;

/** What the domain functions share: the database, the object store, the registry and the clock. */
export interface UploadsDeps {
  prisma: PrismaClient;
  store: ObjectStore;
  directory: CapabilityDirectory;
  settings: UploadSettings;
  logger: Logger;
  /** Default `() => new Date()`; tests move time. */
  now?: () => Date;
}

export function nowOf(deps: Pick<UploadsDeps, 'now'>): Date {
  return deps.now ? deps.now() : new Date();
}
