import { setTimeout as delay } from 'node:timers/promises';
import type { ServiceClient } from '@svc/bus';
import type { PlatformCatalog, VaultRotationState } from '@svc/contracts';

/** The vault's rotation methods, as the CLI's commands call them. */
export type VaultClient = Pick<ServiceClient<PlatformCatalog, 'vault'>, 'rotationStatus' | 'startRotation'>;

/** ms the CLI waits for the vault to re-read a changed keyring file (the vault polls every 5 s). */
export const KEYRING_RELOAD_WAIT_MS = 15_000;
/** ms between two status reads while waiting. */
const POLL_MS = 500;

/** `vault rotation`: the state as the vault that answered sees it. */
export function vaultRotation(vault: VaultClient): Promise<VaultRotationState> {
  return vault.rotationStatus({});
}

export interface RotateOptions {
  /** The keyring file's current version when the CLI can read the file: the version to rotate to. */
  expectedVersion: number | undefined;
  /** Wait until the re-wrap has finished (completed or failed). */
  wait: boolean;
  /** Progress lines for the operator (stderr). */
  report: (line: string) => void;
  reloadWaitMs?: number;
}

/**
 * `vault rotate`. The vault rotates to its own current version, so after `vault add-key` the CLI
 * first waits until the vault reports the file's current version (it re-reads the file within 5 s):
 * otherwise the rotation would target the old version and end at once. Then starts (idempotent
 * per version) and, with `wait`, follows the re-wrap to its end.
 */
export async function vaultRotate(vault: VaultClient, options: RotateOptions): Promise<VaultRotationState> {
  if (options.expectedVersion !== undefined) {
    const deadline = Date.now() + (options.reloadWaitMs ?? KEYRING_RELOAD_WAIT_MS);
    let state = await vaultRotation(vault);
    while (state.current_version !== options.expectedVersion) {
      if (Date.now() >= deadline) {
        throw new Error(
          `the vault still wraps with key version ${state.current_version} while the keyring file makes ${options.expectedVersion} current: ` +
            'is it reading this file (VAULT_KEYRING_FILE)? Nothing was started',
        );
      }
      options.report(
        `waiting for the vault to re-read the keyring (version ${state.current_version} → ${options.expectedVersion})`,
      );
      await delay(POLL_MS);
      state = await vaultRotation(vault);
    }
  }
  let state = await vault.startRotation({});
  if (!options.wait) return state;
  let lastReported = -1;
  while (state.rewrap?.state === 'running') {
    if (state.rewrap.rewrapped !== lastReported) {
      lastReported = state.rewrap.rewrapped;
      options.report(`re-wrapped ${state.rewrap.rewrapped}, ${state.rewrap.remaining} left`);
    }
    await delay(POLL_MS);
    state = await vaultRotation(vault);
  }
  return state;
}
