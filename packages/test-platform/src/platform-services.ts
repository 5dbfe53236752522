import { randomBytes } from 'node:crypto';
import type { Logger } from '@svc/log';
import { orchestratorHandlers, registryDirectory } from '@svc/orchestrator/src/handlers/rpc';
import { catalogChangedPublisher } from '@svc/registry/src/adapters/catalog-events';
import { seedCatalog } from '@svc/registry/src/domain/seed';
import { registryHandlers } from '@svc/registry/src/handlers/rpc';
import { MANIFESTS } from '@svc/registry/src/manifests';
import { createCapabilityDirectory, listenHttp } from '@svc/service-kit';
import {
  type InProcessPlatform,
  type InProcessServices,
  type StatementListener,
  startInProcessPlatform,
} from '@svc/testkit';
import { signLink } from '@svc/uploads/src/domain/download-link';
import { UPLOAD_SETTING_DEFAULTS, type UploadSettings } from '@svc/uploads/src/domain/settings';
import { createInternalApp } from '@svc/uploads/src/handlers/internal-app';
import { uploadsHandlers } from '@svc/uploads/src/handlers/rpc';
import { VAULT_SETTING_DEFAULTS } from '@svc/vault/src/domain/deps';
import { rewrapEnqueuer } from '@svc/vault/src/handlers/rewrap-job';
import { vaultHandlers } from '@svc/vault/src/handlers/rpc';
import { LocalKeyring } from '@svc/vault-crypto';
import { walletHandlers } from '@svc/wallet/src/handlers/rpc';

/**
 * The services behind the gateway and the dashboard, in this process: each one's real RPC handlers
 * built the way its main.ts builds them (minus env and process), over the testkit's in-process
 * platform (a test database, a Redis prefix, an in-memory RPC transport). What the gateway's and the
 * dashboard's tests used to get from hand-written fakes (fake-orchestrator.ts and the others,
 * removed in issue 24) now comes from the services themselves, so a stand-in cannot disagree with
 * the service it stands in for.
 */

/** The uploads service's settings (its env.ts defaults; a fresh link secret). */
const UPLOAD_SETTINGS: UploadSettings = {
  ...UPLOAD_SETTING_DEFAULTS,
  linkSecret: randomBytes(32).toString('base64url'),
};

export interface PlatformServices extends InProcessPlatform {
  /** The uploads service's internal HTTP server (DATA_PORT): upload bytes and downloads. */
  readonly uploadsDataUrl: string;
  /** The query of a download link the uploads service signed for `clientId` (valid 15 min). */
  signedDownloadQuery(artifactId: string, clientId: string): string;
}

export interface PlatformServicesOptions {
  logger?: Logger;
  /** ms every client waits (a "down" service's 503 names it): default 1,000. */
  timeoutMs?: number;
  /**
   * Services served beside the five, built the same way: e.g. the gateway's `keys`, which the
   * dashboard calls (the gateway package cannot be a dependency of this one: it tests with it).
   */
  extraServices?: InProcessServices;
  /** Database and Redis prefix label (lowercase letters, digits, _); default `gwplatform`. */
  label?: string;
  /** Told about every statement the services send (@svc/testkit StatementCounter.observe). */
  onStatement?: StatementListener;
  /**
   * ms the orchestrator keeps a capability's record (production: CAPABILITY_CACHE_TTL_MS, 5 s);
   * default 0, so a test that takes the registry down sees it at once.
   */
  capabilityCacheTtlMs?: number;
}

/** The registry, wallet, orchestrator, uploads and vault, each from its own handlers. */
export async function startPlatformServices(
  options: PlatformServicesOptions = {},
): Promise<PlatformServices> {
  let uploadsDataUrl: string | undefined;
  const services: InProcessServices = {
    ...options.extraServices,
    // Seeded from the manifests of this build before it answers, as the registry's main.ts does.
    registry: async ({ prisma, bus, logger }) => {
      await seedCatalog({
        prisma,
        publishCatalogChanged: catalogChangedPublisher(bus),
        logger,
        manifests: MANIFESTS,
      });
      return registryHandlers(prisma);
    },
    wallet: ({ prisma, logger }) => walletHandlers({ prisma, logger }),
    // By default the registry is read on every describe (no cache): a test that takes the registry
    // down sees it at once.
    orchestrator: ({ prisma, bus, logger, client }) =>
      orchestratorHandlers({
        prisma,
        bus,
        wallet: client('wallet'),
        uploads: client('uploads'),
        directory: registryDirectory(client('registry'), options.capabilityCacheTtlMs ?? 0),
        logger,
      }),
    uploads: async ({ prisma, store, logger, client, own }) => {
      const registry = client('registry');
      const deps = {
        prisma,
        store,
        logger,
        settings: UPLOAD_SETTINGS,
        directory: createCapabilityDirectory({
          fetch: async (slug) => (await registry.describe({ slug })).capability,
          ttlMs: 0,
        }),
      };
      const data = await listenHttp(createInternalApp(deps, logger), {
        port: 0,
        graceMs: 1_000,
        requestTimeoutMs: UPLOAD_SETTINGS.putTimeoutMs,
      });
      own(data);
      uploadsDataUrl = `http://127.0.0.1:${data.port}`;
      return uploadsHandlers(deps);
    },
    vault: ({ prisma, bus, store, logger, client }) =>
      vaultHandlers(
        {
          prisma,
          keys: new LocalKeyring(1, new Map([[1, randomBytes(32)]])),
          store,
          uploads: client('uploads'),
          settings: VAULT_SETTING_DEFAULTS,
          logger,
          now: () => new Date(),
        },
        rewrapEnqueuer(bus),
      ),
  };
  const platform = await startInProcessPlatform({
    services,
    label: options.label ?? 'gwplatform',
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.onStatement === undefined ? {} : { onStatement: options.onStatement }),
  });
  if (uploadsDataUrl === undefined) throw new Error('the uploads service did not start its data server');
  return {
    ...platform,
    uploadsDataUrl,
    signedDownloadQuery: (artifactId, clientId) => {
      const link = signLink(
        UPLOAD_SETTINGS.linkSecret,
        artifactId,
        clientId,
        new Date(),
        UPLOAD_SETTINGS.linkTtlMs,
      );
      return new URLSearchParams({ expires: String(link.expires), signature: link.signature }).toString();
    },
  };
}
