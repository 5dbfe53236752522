import type { VaultField } from '@svc/contracts';
import type { VaultDeps } from '../deps';
import { FIELD_ROW_SELECT, fieldView } from './field-view';

/** `rpc.vault.listFields`: every field of the client by name, masked (nothing is decrypted). */
export async function listFields(deps: Pick<VaultDeps, 'prisma'>, clientId: string): Promise<VaultField[]> {
  const rows = await deps.prisma.vaultField.findMany({
    where: { clientId },
    orderBy: { name: 'asc' },
    select: FIELD_ROW_SELECT,
  });
  return rows.map(fieldView);
}
