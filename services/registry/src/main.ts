import { platformCatalog } from '@svc/contracts';
import { defineService } from '@svc/service-kit';
import { catalogChangedPublisher } from './adapters/catalog-events';
import { seedCatalog } from './domain/seed';
import { loadRegistryEnv } from './env';
import { serveRegistryRpc } from './handlers/rpc';
import { MANIFESTS } from './manifests';

// Wiring only (docs/architecture.md "Processes"; defineService: env → logger → prisma → bus →
// start → health): seed → RPC. Closed in reverse: health, the RPC responder, the bus, Prisma.
defineService({
  name: 'registry',
  env: loadRegistryEnv,
  needs: { database: true, bus: { catalog: platformCatalog } },
  start: async ({ prisma, bus, logger }) => {
    // Before answering: the catalog served is the one in this build.
    await seedCatalog({
      prisma,
      publishCatalogChanged: catalogChangedPublisher(bus),
      logger,
      manifests: MANIFESTS,
    });
    const rpc = serveRegistryRpc(bus, prisma);
    return [{ name: 'rpc', close: () => rpc.close() }];
  },
});
