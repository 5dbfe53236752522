import { type Bus, type RpcServer, type ServeRpcOptions, type ServiceHandlers, serveRpc } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { describeCapability } from '../domain/describe';
import { searchCapabilities } from '../domain/search';

/**
 * `rpc.registry` methods. Transport only: requests arrive parsed against rpcCatalog
 * (`registry.search` takes ListCapabilitiesQuery with defaults applied), answers are checked against
 * the catalog's response schemas by the transport too, and a NotFoundError travels back as a 404.
 */
export function registryHandlers(prisma: PrismaClient): ServiceHandlers<PlatformCatalog, 'registry'> {
  return {
    search: (query) => searchCapabilities(prisma, query),
    describe: ({ slug }) => describeCapability(prisma, slug),
  };
}

export function serveRegistryRpc(
  bus: Bus<PlatformCatalog>,
  prisma: PrismaClient,
  options: ServeRpcOptions = {},
): RpcServer {
  return serveRpc(bus, 'registry', registryHandlers(prisma), options);
}
