import { z } from 'zod';
import { DateTime, Scope, Uuid } from '../common';

/**
 * `rpc.keys`: the API keys of a client, answered by the gateway process (which owns the `auth`
 * schema and verifies keys on every request) for the dashboard process (issue 24 item 3). Internal:
 * no REST operation, no MCP tool. Wire contract between processes of possibly different versions:
 * evolve additively (new fields optional), never rename.
 */

/** The public part of an API key (`svc_live_<key_id>_…`): 12 lowercase letters and digits. */
export const ApiKeyId = z.string().regex(/^[a-z0-9]{12}$/, 'must be an API key id');

/** One of a client's keys as its owner's pages list it: never the secret or its hash. */
export const ClientApiKey = z.object({
  key_id: ApiKeyId,
  /** As stored (a scope retired since would still show). */
  scopes: z.array(z.string()),
  label: z.string().nullable(),
  created_at: DateTime,
  last_used_at: DateTime.nullable(),
  expires_at: DateTime.nullable(),
  revoked_at: DateTime.nullable(),
});
export type ClientApiKey = z.infer<typeof ClientApiKey>;

export const ClientKeysRequest = z.object({ client_id: Uuid });

export const DescribeClientResponse = z.object({ client_id: Uuid, name: z.string() });

export const ListClientKeysResponse = z.object({
  /** Newest first, revoked and expired ones included (the page marks them). */
  keys: z.array(ClientApiKey),
});

export const CreateClientKeyRequest = z.object({
  client_id: Uuid,
  scopes: z.array(Scope).min(1),
  label: z.string().trim().min(1).max(200).nullable(),
  /** After this instant the key no longer verifies; null: never. Must be in the future (422). */
  expires_at: DateTime.nullable(),
});

export const CreateClientKeyResponse = z.object({
  key_id: ApiKeyId,
  /**
   * The whole key, once: only SHA-256 of its secret is stored. It travels in the sealed reply, which
   * is published, never stored in Redis (decisions TR2).
   */
  api_key: z.string(),
});

export const RevokeClientKeyRequest = z.object({ client_id: Uuid, key_id: ApiKeyId });

export const RevokeClientKeyResponse = z.object({
  /** False when the key is unknown, another client's or already revoked (the caller answers 404). */
  revoked: z.boolean(),
});
