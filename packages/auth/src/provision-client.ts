import type { Prisma } from '@svc/db';
import type { ApiKeyStore, CreatedApiKey } from './api-key-store';

// Shared by the operator CLI (`pnpm admin create-key`), the launcher's development key and the
// integration-test harness, so all three leave the same rows behind. Not used by any service:
// architecture.md lets the operator tooling write `auth` and `wallet` rows through @svc/db directly.

/** Ledger note of an opening credit when the caller gives none. */
export const DEFAULT_OPENING_BALANCE_NOTE = 'opening balance';

export interface ProvisionClientInput {
  clientName: string;
  scopes: readonly string[];
  label?: string | null;
  /** Opening credit, micro-USD (1 USD = 1 000 000); null/absent: no credit line. */
  balanceMicros?: bigint | null;
  /** Wallet spend cap, micro-USD; null/absent: an existing cap is kept, a new account has none. */
  spendCapMicros?: bigint | null;
  /** Note on the opening credit's ledger line, so statements show where the money came from. */
  balanceNote?: string;
}

/**
 * Wallet rows for a new key. Runs inside the key's transaction, so a failure here leaves no key
 * behind either.
 */
async function writeWallet(
  tx: Prisma.TransactionClient,
  created: CreatedApiKey,
  input: ProvisionClientInput,
): Promise<void> {
  const balanceMicros = input.balanceMicros ?? null;
  const spendCapMicros = input.spendCapMicros ?? null;
  if (balanceMicros === null && spendCapMicros === null) {
    return;
  }
  await tx.walletAccount.upsert({
    where: { clientId: created.clientId },
    create: { clientId: created.clientId, spendCapMicros },
    // An existing client keeps its cap unless a new one was given.
    update: spendCapMicros === null ? {} : { spendCapMicros },
  });
  // A zero opening balance adds nothing to the sum, so no zero line clutters the ledger.
  if (balanceMicros !== null && balanceMicros > 0n) {
    await tx.ledgerEntry.create({
      data: {
        clientId: created.clientId,
        kind: 'credit',
        amountMicros: balanceMicros,
        note: input.balanceNote ?? DEFAULT_OPENING_BALANCE_NOTE,
      },
    });
  }
}

/**
 * Creates an API key (and its client when the name is new) plus, when asked, the client's wallet
 * account, spend cap and opening credit, all in one transaction. Returns the whole key once.
 * Throws like `ApiKeyStore.create` (UnknownScopeError, RangeError) and RangeError for negative amounts.
 */
export async function provisionClient(
  store: ApiKeyStore,
  input: ProvisionClientInput,
): Promise<CreatedApiKey> {
  // Checked before the transaction opens: nothing to roll back for a plain input mistake.
  if ((input.balanceMicros ?? 0n) < 0n) throw new RangeError('opening balance must not be negative');
  if ((input.spendCapMicros ?? 0n) < 0n) throw new RangeError('spend cap must not be negative');
  return store.create(
    { clientName: input.clientName, scopes: input.scopes, label: input.label ?? null },
    { withinTransaction: (tx, created) => writeWallet(tx, created, input) },
  );
}
