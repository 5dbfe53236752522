// Vault process: for now a `rpc.vault` responder (ping) with health and readiness; vault fields,
// extractions and document filling arrive with their issue (docs/architecture.md).
// Wiring only (defineService: env → logger → prisma → bus → start → health server): the RPC responder.
import { serveRpc } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { defineService } from '@svc/service-kit';
import { loadVaultEnv } from './env';
import { vaultHandlers } from './handlers/rpc';

defineService({
  name: 'vault',
  env: loadVaultEnv,
  // PostgreSQL is a readiness dependency already: the service's own schema comes with its issue.
  needs: { database: true, bus: { catalog: platformCatalog } },
  // Closed in reverse after the health server, before the bus and Prisma.
  start: ({ bus }) => {
    const rpc = serveRpc(bus, 'vault', vaultHandlers());
    return [{ name: 'rpc', close: () => rpc.close() }];
  },
});
