import type { ServiceHandlers } from '@svc/bus';

/**
 * `rpc.orchestrator` methods. The catalog has only `ping` for this service so far, which serveRpc answers
 * itself; the service's own methods arrive with its issue. Kept so main.ts wires the same way as
 * every other service.
 */
export function orchestratorHandlers(): ServiceHandlers<'orchestrator'> {
  return {};
}
