import { SERVICE_NAMES } from '@svc/devstack';
import { DashboardEnv } from '../../../services/dashboard/src/env';
import { GatewayEnv } from '../../../services/gateway/src/env';
import { OrchestratorEnv } from '../../../services/orchestrator/src/env';
import { RegistryEnv } from '../../../services/registry/src/env';
import { UploadsEnv } from '../../../services/uploads/src/env';
import { VaultEnv } from '../../../services/vault/src/env';
import { WalletEnv } from '../../../services/wallet/src/env';
import { WorkerEnv } from '../../../services/worker/src/env';
import type { ServiceEnv } from './env-tables';

/**
 * Each service's env schema. Keyed by the names of the one service list (@svc/devstack
 * platform-services.ts): a service added there without an entry here fails `serviceEnvs()`.
 */
const ENV_SCHEMAS: Readonly<Record<string, ServiceEnv['schema']>> = {
  gateway: GatewayEnv,
  registry: RegistryEnv,
  wallet: WalletEnv,
  orchestrator: OrchestratorEnv,
  uploads: UploadsEnv,
  vault: VaultEnv,
  worker: WorkerEnv,
  dashboard: DashboardEnv,
};

/** The services' env schemas in the service list's order (start-up order). */
export function serviceEnvs(): ServiceEnv[] {
  return SERVICE_NAMES.map((name) => {
    const schema = ENV_SCHEMAS[name];
    if (schema === undefined) throw new Error(`tools/docs-gen/src/services.ts: no env schema for ${name}`);
    return { name, schema };
  });
}
