import type { ApiKeyStore } from '@svc/auth';
import type { RevokeKeyArgs } from '../args';

export interface RevokeKeyOutput {
  key_id: string;
  /** False when the key id is unknown or the key was already revoked. */
  revoked: boolean;
}

export async function revokeKey(store: ApiKeyStore, args: RevokeKeyArgs): Promise<RevokeKeyOutput> {
  return { key_id: args.keyId, revoked: await store.revoke(args.keyId) };
}
