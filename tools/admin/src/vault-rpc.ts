import { serviceClient } from '@svc/bus';
import type { VaultClient } from './commands/vault-rotation';
import type { BusSettings } from './platform-bus';
import { withPlatformBus } from './platform-bus-session';

// ms one vault call may take (status counts every stored data key).
const VAULT_RPC_TIMEOUT_MS = 10_000;
// ms the first `ping` may take: a vault that is there answers within milliseconds; no answer means
// a platform that is down or a BUS_PREFIX its services do not use, said now rather than after the
// 10 s of a real call (issue 23).
const PING_TIMEOUT_MS = 3_000;

/**
 * Runs `use` with an `rpc.vault` client on the stack's bus, closed afterwards. A vault that does
 * not answer a ping is an error naming the bus it was looked for on.
 */
export async function withVault<T>(
  settings: BusSettings,
  use: (vault: VaultClient) => Promise<T>,
): Promise<T> {
  // Failures come back as errors.
  return withPlatformBus(settings, async (bus) => {
    const vault = serviceClient(bus, 'vault', {
      timeoutMs: VAULT_RPC_TIMEOUT_MS,
      methodTimeoutsMs: { ping: PING_TIMEOUT_MS },
    });
    await vault.ping({}).catch((err: unknown) => {
      throw new Error(
        `no vault answered within ${PING_TIMEOUT_MS / 1000} s on ${settings.origin} ` +
          `(${err instanceof Error ? err.message : String(err)}): is the platform running, and is that ` +
          'the BUS_PREFIX its services use?',
      );
    });
    return use(vault);
  });
}
