import type { ApiKeyStore } from '@svc/auth';
import type { RevokeKeyArgs } from '../args';

export interface RevokeKeyOutput {
  key_id: string;
  /** False when the key id is unknown or the key was already revoked. */
  revoked: boolean;
}

/**
 * Tells the running gateways (`apikey.revoked`); resolves with a line for the operator (stderr).
 * Never throws: the revocation is in the database already.
 */
export type NotifyGateways = (keyId: string) => Promise<string>;

/**
 * Revokes in the database first (the truth), then notifies the gateways, also when the key was
 * already revoked: a repeated revoke re-sends an event that may have been lost.
 */
export async function revokeKey(
  store: ApiKeyStore,
  args: RevokeKeyArgs,
  notify?: NotifyGateways,
  report: (line: string) => void = () => {},
): Promise<RevokeKeyOutput> {
  const revoked = await store.revoke(args.keyId);
  if (notify !== undefined) report(await notify(args.keyId));
  return { key_id: args.keyId, revoked };
}
