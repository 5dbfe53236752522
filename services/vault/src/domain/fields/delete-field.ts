import { ConflictError, NotFoundError } from '@svc/errors';
import type { VaultDeps } from '../deps';
import { markFieldsChanged } from './fields-changed';

export interface DeleteFieldInput {
  clientId: string;
  name: string;
  /** When given, only a field at exactly this version is deleted (409 otherwise). */
  expectedVersion?: number | undefined;
}

/**
 * `rpc.vault.deleteField`: deletes the row, and with it the only copy of the value's wrapped data key
 * and ciphertext (crypto-shredding; backups hold them wrapped by a key version that is retired
 * after the next rotation). Conditional in one statement, so a concurrent update between a check
 * and the delete cannot be lost silently: 404 missing, 409 at another version than expected.
 */
export async function deleteField(
  deps: Pick<VaultDeps, 'prisma' | 'now'>,
  input: DeleteFieldInput,
): Promise<{ name: string; version: number }> {
  return deps.prisma.$transaction(async (tx) => {
    const row = await tx.vaultField.findUnique({
      where: { clientId_name: { clientId: input.clientId, name: input.name } },
      select: { id: true, version: true },
    });
    if (!row) throw new NotFoundError(`field "${input.name}" does not exist`);
    const version = input.expectedVersion ?? row.version;
    if (version !== row.version) {
      throw new ConflictError(
        `field "${input.name}" is at version ${row.version}, not ${version}: read it again before deleting`,
      );
    }
    const deleted = await tx.vaultField.deleteMany({ where: { id: row.id, version } });
    // Changed between the read and the delete (an update committed in between).
    if (deleted.count === 0) {
      throw new ConflictError(`field "${input.name}" changed while it was being deleted: read it again`);
    }
    await markFieldsChanged(tx, input.clientId, deps.now());
    return { name: input.name, version };
  });
}
