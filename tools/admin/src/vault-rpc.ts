import { createBus, createRpcClient } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { createLogger } from '@svc/log';
import type { VaultClient } from './commands/vault-rotation';
import type { BusSettings } from './revocation-event';

// ms one vault call may take (status counts every stored data key).
const VAULT_RPC_TIMEOUT_MS = 10_000;

/** Runs `use` with an `rpc.vault` client on the stack's bus, closed afterwards. */
export async function withVault<T>(
  settings: BusSettings,
  use: (vault: VaultClient) => Promise<T>,
): Promise<T> {
  const bus = createBus({
    catalog: platformCatalog,
    redisUrl: settings.redisUrl,
    prefix: settings.prefix,
    encryptionKeys: settings.encryptionKeys,
    // stdout carries the CLI's one JSON value; failures come back as errors.
    logger: createLogger({ service: 'admin', level: 'silent' }),
    closeTimeoutMs: 1_000,
  });
  try {
    return await use(createRpcClient(bus, 'vault', { timeoutMs: VAULT_RPC_TIMEOUT_MS }));
  } finally {
    await bus.close().catch(() => undefined);
  }
}
