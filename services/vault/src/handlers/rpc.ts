import type { ServiceHandlers } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';

/**
 * `rpc.vault` methods. The catalog has only `ping` for this service so far, which serveRpc answers
 * itself; the service's own methods arrive with its issue. Kept so main.ts wires the same way as
 * every other service.
 */
export function vaultHandlers(): ServiceHandlers<PlatformCatalog, 'vault'> {
  return {};
}
