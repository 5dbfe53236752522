import { randomBytes } from 'node:crypto';
import { ApiKeyStore, provisionClient } from '@svc/auth';
import { microsFromUsd } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';

/** Ledger note of a test client's opening credit. */
export const TESTKIT_BALANCE_NOTE = 'opening balance (testkit)';

export interface CreateApiKeyOptions {
  /** Scope names of spec §5.3; an unknown one throws UnknownScopeError. */
  scopes: readonly string[];
  /** Default: a fresh random name, so every call makes a new client. */
  clientName?: string;
  label?: string;
  /** Opening credit in USD ("12.50" or 12.5, at most 6 decimals); absent: no wallet rows unless a cap is given. */
  balanceUsd?: string | number;
  /** Wallet spend cap in USD; absent: none. */
  spendCapUsd?: string | number;
}

export interface TestApiKey {
  clientId: string;
  keyId: string;
  /** The whole key, as a client sends it in `Authorization: Bearer …`. */
  apiKey: string;
}

/** USD as string or number → micro-USD, exactly (numbers go through a fixed 6-decimal string). */
export function usdToMicros(amount: string | number): bigint {
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) throw new RangeError(`not a USD amount: ${amount}`);
    return microsFromUsd(amount.toFixed(6));
  }
  return microsFromUsd(amount);
}

/**
 * A client with a key (and wallet rows when asked), written the way the operator CLI writes them
 * (`provisionClient` of @svc/auth), straight into the stack's database.
 */
export async function createTestApiKey(
  prisma: PrismaClient,
  options: CreateApiKeyOptions,
): Promise<TestApiKey> {
  const created = await provisionClient(new ApiKeyStore(prisma), {
    clientName: options.clientName ?? `test-client-${randomBytes(4).toString('hex')}`,
    scopes: options.scopes,
    label: options.label ?? null,
    balanceMicros: options.balanceUsd === undefined ? null : usdToMicros(options.balanceUsd),
    spendCapMicros: options.spendCapUsd === undefined ? null : usdToMicros(options.spendCapUsd),
    balanceNote: TESTKIT_BALANCE_NOTE,
  });
  return { clientId: created.clientId, keyId: created.keyId, apiKey: created.apiKey };
}
