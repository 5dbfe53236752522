import type { VaultRotationState } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import type { KeyEncryptionKeys } from '@svc/vault-crypto';
import { dataKeysByVersion, dataKeysNotAt } from './data-keys';

/** `rpc.vault.rotationStatus`: this process's keyring, data keys per version, the latest re-wrap. */
export async function rotationState(deps: {
  prisma: PrismaClient;
  keys: KeyEncryptionKeys;
}): Promise<VaultRotationState> {
  const [byVersion, latest] = await Promise.all([
    dataKeysByVersion(deps.prisma),
    deps.prisma.vaultRotation.findFirst({ orderBy: [{ startedAt: 'desc' }, { targetVersion: 'desc' }] }),
  ]);
  const state: VaultRotationState = {
    current_version: deps.keys.currentVersion,
    keyring_versions: [...deps.keys.versions],
    data_keys_by_version: byVersion,
  };
  if (!latest) return state;
  const remaining = await dataKeysNotAt(deps.prisma, latest.targetVersion);
  return {
    ...state,
    rewrap: {
      target_version: latest.targetVersion,
      // Written only by this module's code: running | completed | failed.
      state: latest.state as 'running' | 'completed' | 'failed',
      rewrapped: latest.rewrapped,
      remaining,
      started_at: latest.startedAt.toISOString(),
      ...(latest.finishedAt ? { finished_at: latest.finishedAt.toISOString() } : {}),
      ...(latest.error ? { error: latest.error } : {}),
    },
  };
}
