import { type Bus, type RpcServer, type ServeRpcOptions, serveRpc } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { describeCapability } from '../domain/describe';
import { searchCapabilities } from '../domain/search';

/**
 * Transport only: `rpc.registry` requests arrive parsed by serveRpc against rpcCatalog
 * (`registry.search` takes ListCapabilitiesQuery with defaults applied), answers are checked against
 * the catalog's response schemas there too, and a NotFoundError travels back as a 404.
 */
export function serveRegistryRpc(
  bus: Bus<PlatformCatalog>,
  prisma: PrismaClient,
  options: ServeRpcOptions = {},
): RpcServer {
  return serveRpc(
    bus,
    'registry',
    {
      search: (query) => searchCapabilities(prisma, query),
      describe: ({ slug }) => describeCapability(prisma, slug),
    },
    options,
  );
}
