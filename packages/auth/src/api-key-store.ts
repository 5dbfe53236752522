import type { Scope } from '@svc/contracts';
import { isUniqueViolation, type Prisma, type PrismaClient } from '@svc/db';
import { type GeneratedApiKey, generateApiKey, parseApiKey } from './api-key-format';
import { parseScopes, scopesFromStored } from './scopes';
import { digestsEqual, hashSecret } from './secret-hash';

// last_used_at is written at most once per this interval per key, so verification does not turn
// every authenticated request into a database write.
export const DEFAULT_TOUCH_INTERVAL_MS = 60_000;
// A new key id can collide with an existing one (≈62 bits, so practically never) and two
// concurrent creates can race on a new client name; both surface as a unique violation (P2002)
// and are retried with a fresh transaction.
const CREATE_ATTEMPTS = 3;
const MAX_NAME_LENGTH = 200; // chars, client names and key labels

export interface CreateApiKeyInput {
  clientName: string;
  scopes: readonly string[];
  label?: string | null;
  /** After this instant the key no longer verifies; null/absent: never expires. Must be in the future. */
  expiresAt?: Date | null;
}

/** A key for an existing client (the dashboard's keys page). */
export interface CreateClientApiKeyInput {
  clientId: string;
  scopes: readonly string[];
  label?: string | null;
  expiresAt?: Date | null;
}

export interface CreatedApiKey {
  clientId: string;
  keyId: string;
  /** The whole key. Returned once, never stored: only SHA-256 of its secret is. */
  apiKey: string;
}

/** Runs inside the creation transaction (e.g. the admin CLI's opening balance and spend cap). */
export type CreateApiKeyHook = (tx: Prisma.TransactionClient, created: CreatedApiKey) => Promise<void>;

export interface VerifiedApiKey {
  clientId: string;
  clientName: string;
  keyId: string;
  scopes: Scope[];
  /** auth.clients.rate_limits as stored (the operator's budget overrides); the gateway validates it. */
  rateLimits: unknown;
}

/** What `lookup` finds: the identity, and the row's id and last use for recording use later. */
export interface LookedUpApiKey {
  /** auth.api_keys.id (not the key id): what `recordUse` takes. */
  id: string;
  lastUsedAt: Date | null;
  /** When the key stops verifying (null: never): a cache must not serve it past this. */
  expiresAt: Date | null;
  identity: VerifiedApiKey;
}

export interface ApiKeyListing {
  clientId: string;
  clientName: string;
  keyId: string;
  scopes: string[];
  label: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
}

export interface ApiKeyStoreOptions {
  /** Clock, for tests. */
  now?: () => Date;
  /** Minimum time between two last_used_at writes for one key, ms (default 60 000). */
  touchIntervalMs?: number;
}

function cleanName(value: string, what: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH) {
    throw new RangeError(`${what} must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  return trimmed;
}

/** What a new key row holds besides its key and client, checked once by `keyFields`. */
interface KeyFields {
  scopes: Scope[];
  label: string | null;
  expiresAt: Date | null;
}

/** The auth.api_keys row of a fresh key: only SHA-256 of its secret is stored. */
function keyRow(
  key: GeneratedApiKey,
  clientId: string,
  fields: KeyFields,
): Prisma.ApiKeyUncheckedCreateInput {
  return {
    keyId: key.keyId,
    clientId,
    // Copied into a plain Uint8Array: Prisma's Bytes type wants an ArrayBuffer-backed view.
    secretHash: new Uint8Array(hashSecret(key.secret)),
    ...fields,
  };
}

/**
 * Runs `insert` with a fresh key, again with another one (and a fresh transaction) after a unique
 * violation, at most CREATE_ATTEMPTS times; any other error is thrown at once.
 */
export async function insertWithFreshKey<T>(insert: (key: GeneratedApiKey) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await insert(generateApiKey());
    } catch (err) {
      if (attempt >= CREATE_ATTEMPTS || !isUniqueViolation(err)) {
        throw err;
      }
    }
  }
}

/** API keys and their clients in the `auth` schema. */
export class ApiKeyStore {
  private readonly now: () => Date;
  private readonly touchIntervalMs: number;

  constructor(
    private readonly prisma: PrismaClient,
    options: ApiKeyStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.touchIntervalMs = options.touchIntervalMs ?? DEFAULT_TOUCH_INTERVAL_MS;
  }

  /**
   * Creates a key for a client, creating the client by name if it does not exist, in one
   * transaction (together with whatever `withinTransaction` writes). Throws UnknownScopeError for
   * a scope outside spec §5.3 and RangeError for an empty scope list or a bad name/label.
   */
  async create(
    input: CreateApiKeyInput,
    options: { withinTransaction?: CreateApiKeyHook } = {},
  ): Promise<CreatedApiKey> {
    const clientName = cleanName(input.clientName, 'client name');
    const fields = this.keyFields(input);

    return insertWithFreshKey((key) =>
      this.prisma.$transaction(async (tx) => {
        const client = await tx.client.upsert({
          where: { name: clientName },
          create: { name: clientName },
          update: {},
        });
        await tx.apiKey.create({ data: keyRow(key, client.id, fields) });
        const created: CreatedApiKey = { clientId: client.id, keyId: key.keyId, apiKey: key.apiKey };
        await options.withinTransaction?.(tx, created);
        return created;
      }),
    );
  }

  /**
   * Creates a key for an existing client (by id): the dashboard's keys page. Throws like `create`,
   * and RangeError when the client does not exist or `expiresAt` is not in the future.
   */
  async createForClient(input: CreateClientApiKeyInput): Promise<CreatedApiKey> {
    const fields = this.keyFields(input);
    const client = await this.prisma.client.findUnique({
      where: { id: input.clientId },
      select: { id: true },
    });
    if (client === null) {
      throw new RangeError('unknown client');
    }
    return insertWithFreshKey(async (key) => {
      await this.prisma.apiKey.create({ data: keyRow(key, client.id, fields) });
      return { clientId: client.id, keyId: key.keyId, apiKey: key.apiKey };
    });
  }

  /**
   * The identity behind a presented key, or null, and records the use (awaited). Malformed keys and
   * bad checksums are rejected before any lookup. For a well-formed key the secret is hashed and
   * compared in constant time whether or not the key id exists (a dummy digest stands in), so
   * response time does not tell which key ids exist. Revoked and expired keys verify as null.
   * The gateway uses `lookup` (through VerifiedKeyCache) and records use in the background instead.
   */
  async verify(presented: string): Promise<VerifiedApiKey | null> {
    const found = await this.lookup(presented);
    if (found === null) {
      return null;
    }
    await this.touch([found.id], found.lastUsedAt);
    return found.identity;
  }

  /** As `verify`, without writing last_used_at: the row id and its last use come back for the caller. */
  async lookup(presented: string): Promise<LookedUpApiKey | null> {
    const parsed = parseApiKey(presented);
    if (parsed === null) {
      return null;
    }
    const row = await this.prisma.apiKey.findUnique({
      where: { keyId: parsed.keyId },
      include: { client: true },
    });
    const nowMs = this.now().getTime();
    const live =
      row !== null && row.revokedAt === null && (row.expiresAt === null || row.expiresAt.getTime() > nowMs)
        ? row
        : null;
    const matches = digestsEqual(hashSecret(parsed.secret), live?.secretHash ?? null);
    if (live === null || !matches) {
      return null;
    }
    return {
      id: live.id,
      lastUsedAt: live.lastUsedAt,
      expiresAt: live.expiresAt,
      identity: {
        clientId: live.clientId,
        clientName: live.client.name,
        keyId: live.keyId,
        scopes: scopesFromStored(live.scopes),
        // Read with the client row this query already fetches: rate limits cost no query of their own.
        rateLimits: live.client.rateLimits,
      },
    };
  }

  /**
   * Records use of several keys (row ids from `lookup`) in one UPDATE, each at most once per touch
   * interval; the condition sits in the UPDATE itself, so gateway replicas that all batch the same
   * key still write it once per interval.
   */
  async recordUse(ids: readonly string[]): Promise<void> {
    await this.touch(ids, null);
  }

  /** Keys (newest last), optionally of one client. Never returns a secret or its hash. */
  async list(filter: { clientName?: string } = {}): Promise<ApiKeyListing[]> {
    return this.listWhere(
      filter.clientName === undefined ? {} : { client: { name: filter.clientName.trim() } },
      [{ createdAt: 'asc' }, { keyId: 'asc' }],
    );
  }

  /**
   * One client's keys, newest first, revoked and expired ones included (the page marks them). Never
   * returns a secret or its hash.
   */
  async listForClient(clientId: string): Promise<ApiKeyListing[]> {
    return this.listWhere({ clientId }, [{ createdAt: 'desc' }, { keyId: 'asc' }]);
  }

  private async listWhere(
    where: Prisma.ApiKeyWhereInput,
    orderBy: Prisma.ApiKeyOrderByWithRelationInput[],
  ): Promise<ApiKeyListing[]> {
    const rows = await this.prisma.apiKey.findMany({
      where,
      select: {
        keyId: true,
        clientId: true,
        scopes: true,
        label: true,
        createdAt: true,
        lastUsedAt: true,
        revokedAt: true,
        expiresAt: true,
        client: { select: { name: true } },
      },
      orderBy,
    });
    return rows.map(({ client, ...row }) => ({ ...row, clientName: client.name }));
  }

  /**
   * Revokes one of a client's keys. False when the key is unknown, another client's (the caller
   * answers 404 either way) or already revoked.
   */
  async revokeForClient(clientId: string, keyId: string): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({
      where: { keyId, clientId, revokedAt: null },
      data: { revokedAt: this.now() },
    });
    return count > 0;
  }

  /** Revokes a key by id. True if this call revoked it; false if unknown or already revoked. */
  async revoke(keyId: string): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({
      where: { keyId, revokedAt: null },
      data: { revokedAt: this.now() },
    });
    return count > 0;
  }

  /** A new key's checked scopes, label and expiry (RangeError or UnknownScopeError otherwise). */
  private keyFields(input: Pick<CreateApiKeyInput, 'scopes' | 'label' | 'expiresAt'>): KeyFields {
    const scopes = parseScopes(input.scopes);
    if (scopes.length === 0) {
      throw new RangeError('a key needs at least one scope');
    }
    const label = input.label == null || input.label.trim() === '' ? null : cleanName(input.label, 'label');
    return { scopes, label, expiresAt: this.checkExpiry(input.expiresAt ?? null) };
  }

  /** null, or a date in the future (RangeError otherwise: a key born expired is a mistake). */
  private checkExpiry(expiresAt: Date | null): Date | null {
    if (expiresAt === null) return null;
    if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= this.now().getTime()) {
      throw new RangeError('a key expiry must be in the future');
    }
    return expiresAt;
  }

  /**
   * Records use at most once per touch interval. The condition sits in the UPDATE itself, so
   * concurrent requests (or gateway replicas) that all saw a stale value still write only once.
   * `lastUsedAt` (one key's value as read) skips the statement when it is already recent.
   */
  private async touch(ids: readonly string[], lastUsedAt: Date | null): Promise<void> {
    const now = this.now();
    const threshold = new Date(now.getTime() - this.touchIntervalMs);
    if (ids.length === 0 || (lastUsedAt !== null && lastUsedAt > threshold)) {
      return;
    }
    await this.prisma.apiKey.updateMany({
      where: { id: { in: [...ids] }, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: threshold } }] },
      data: { lastUsedAt: now },
    });
  }
}
