import type { ApiKeyStore } from '@svc/auth';
import type { ListKeysArgs } from '../args';

export interface KeyRow {
  client_id: string;
  client_name: string;
  key_id: string;
  scopes: string[];
  label: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
}

/** Every key (or one client's), oldest first. The store never returns secrets or hashes. */
export async function listKeys(store: ApiKeyStore, args: ListKeysArgs): Promise<KeyRow[]> {
  const rows = await store.list(args.clientName === null ? {} : { clientName: args.clientName });
  return rows.map((row) => ({
    client_id: row.clientId,
    client_name: row.clientName,
    key_id: row.keyId,
    scopes: row.scopes,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  }));
}
