import type { ApiKeyListing, ApiKeyStore } from '@svc/auth';
import type { ServiceHandlers } from '@svc/bus';
import type { ClientApiKey, PlatformCatalog } from '@svc/contracts';
import { NotFoundError, ValidationError } from '@svc/errors';
import type { Logger } from '@svc/log';

/**
 * `rpc.keys` (issue 24 item 3): the dashboard process asks the gateway, which owns the `auth`
 * schema, for a client's name and keys, and to create and revoke them. Transport only: requests
 * arrive parsed by serveRpc against the catalog; the store decides.
 */
export interface KeysRpcDeps {
  /** auth.clients.name of a client, or null when there is no such client. */
  readonly clientName: (clientId: string) => Promise<string | null>;
  readonly store: Pick<ApiKeyStore, 'listForClient' | 'createForClient' | 'revokeForClient'>;
  /** Publishes `apikey.revoked` so every gateway drops the key from its cache at once. */
  readonly keyRevoked: (keyId: string) => Promise<unknown>;
  readonly logger: Logger;
}

function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

function wireKey(key: ApiKeyListing): ClientApiKey {
  return {
    key_id: key.keyId,
    scopes: key.scopes,
    label: key.label,
    created_at: key.createdAt.toISOString(),
    last_used_at: iso(key.lastUsedAt),
    expires_at: iso(key.expiresAt),
    revoked_at: iso(key.revokedAt),
  };
}

export function keysHandlers(deps: KeysRpcDeps): ServiceHandlers<PlatformCatalog, 'keys'> {
  return {
    describeClient: async ({ client_id }) => {
      const name = await deps.clientName(client_id);
      if (name === null) throw new NotFoundError('unknown client');
      return { client_id, name };
    },
    listKeys: async ({ client_id }) => ({ keys: (await deps.store.listForClient(client_id)).map(wireKey) }),
    createKey: async (request) => {
      try {
        const created = await deps.store.createForClient({
          clientId: request.client_id,
          scopes: request.scopes,
          label: request.label,
          expiresAt: request.expires_at === null ? null : new Date(request.expires_at),
        });
        return { key_id: created.keyId, api_key: created.apiKey };
      } catch (err) {
        // The store's refusals of the request itself (an unknown client, a past expiry).
        if (err instanceof RangeError) throw new ValidationError(err.message);
        throw err;
      }
    },
    revokeKey: async ({ client_id, key_id }) => {
      const revoked = await deps.store.revokeForClient(client_id, key_id);
      if (revoked) {
        // Revoked in the database already; the event only shortens how long caches keep the key
        // (each gateway refuses it within API_KEY_CACHE_TTL_MS anyway), so a failed publish is
        // logged, not a failure (decisions DB8).
        await deps.keyRevoked(key_id).catch((err: unknown) => {
          deps.logger.warn({ key_id, err }, 'apikey.revoked not published');
        });
      }
      return { revoked };
    },
  };
}
