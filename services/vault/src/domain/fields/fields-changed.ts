import type { VaultTx } from '../deps';

/**
 * Records that a client's fields changed at `at` (create, update or delete; the profile's
 * `last_changed_at`), in the transaction of the change. One statement (ON CONFLICT), so two first
 * changes of a client at once cannot collide; never moves backwards.
 */
export async function markFieldsChanged(tx: VaultTx, clientId: string, at: Date): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO vault.client_states (client_id, fields_changed_at) VALUES (${clientId}::uuid, ${at})
    ON CONFLICT (client_id) DO UPDATE
      SET fields_changed_at = GREATEST(vault.client_states.fields_changed_at, EXCLUDED.fields_changed_at)`;
}
