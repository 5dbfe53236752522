import { VAULT_COMMON_PROFILE_FIELDS, type VaultFieldType, type VaultProfileResponse } from '@svc/contracts';
import type { VaultDeps } from '../deps';

export type VaultProfile = VaultProfileResponse['profile'];

/**
 * `rpc.vault.profile`: the client's vault at a glance, from the columns only (nothing decrypted):
 * counts by type, the common fields present or missing, pending extractions not yet expired, when
 * fields last changed, and how many values still wait for a re-wrap to the current key version.
 */
export async function vaultProfile(
  deps: Pick<VaultDeps, 'prisma' | 'keys' | 'now'>,
  clientId: string,
): Promise<VaultProfile> {
  const currentVersion = deps.keys.currentVersion;
  const [byType, names, pending, changed, onOlderKeys] = await Promise.all([
    deps.prisma.vaultField.groupBy({ by: ['type'], where: { clientId }, _count: { _all: true } }),
    deps.prisma.vaultField.findMany({ where: { clientId }, select: { name: true } }),
    deps.prisma.vaultExtraction.count({
      where: { clientId, status: 'pending', expiresAt: { gt: deps.now() } },
    }),
    deps.prisma.vaultClientState.findUnique({ where: { clientId }, select: { fieldsChangedAt: true } }),
    deps.prisma.vaultField.count({ where: { clientId, keyVersion: { not: currentVersion } } }),
  ]);
  const counts: Partial<Record<VaultFieldType, number>> = {};
  let total = 0;
  for (const group of byType) {
    // Written only from VaultFieldType values (saveField validates the type).
    counts[group.type as VaultFieldType] = group._count._all;
    total += group._count._all;
  }
  const present = new Set(names.map((row) => row.name));
  // Written with every create, update and delete (a delete leaves no field row to date it).
  const lastChanged = changed?.fieldsChangedAt;
  return {
    fields_total: total,
    by_type: counts,
    common_fields: VAULT_COMMON_PROFILE_FIELDS.map(({ name, type }) => ({
      name,
      type,
      present: present.has(name),
    })),
    pending_extractions: pending,
    ...(lastChanged ? { last_changed_at: lastChanged.toISOString() } : {}),
    key_version: currentVersion,
    fields_on_older_keys: onOlderKeys,
  };
}
