import { signedUsdFromMicros, usdFromMicros } from '@svc/contracts';
import { ledgerTotals, lockWalletAccount, type PrismaClient, spendPeriod } from '@svc/db';
import type { SetBalanceArgs } from '../args';
import { clientIdByName } from './client-by-name';

export interface SetBalanceOutput {
  client_id: string;
  /** The balance now (what was asked). */
  balance_usd: string;
  /** The adjustment line written: signed, "0.00" when none was needed. */
  adjustment_usd: string;
}

/**
 * Brings the client's balance (credits + adjustments + captures, docs/decisions.md W1) to exactly
 * `balanceMicros` with ONE adjustment line of the difference. Under the wallet's per-client lock
 * (@svc/db lockWalletAccount, the one the wallet service takes for holds and settlements), so a
 * capture committing at the same moment cannot make the difference wrong. The ledger stays
 * append-only: the history shows who set what. Held money is left alone.
 */
export async function setBalance(
  prisma: PrismaClient,
  args: SetBalanceArgs,
  now: Date = new Date(),
): Promise<SetBalanceOutput> {
  const clientId = await clientIdByName(prisma, args.clientName);
  const target = usdFromMicros(args.balanceMicros);
  const adjustmentMicros = await prisma.$transaction(async (tx) => {
    await lockWalletAccount(tx, clientId);
    const { balanceMicros } = await ledgerTotals(tx, clientId, spendPeriod(now));
    const difference = args.balanceMicros - balanceMicros;
    if (difference !== 0n) {
      await tx.ledgerEntry.create({
        data: {
          clientId,
          kind: 'adjustment',
          amountMicros: difference,
          note: args.note ?? `balance set to ${target} USD (admin CLI)`,
          createdAt: now,
        },
      });
    }
    return difference;
  });
  return { client_id: clientId, balance_usd: target, adjustment_usd: signedUsdFromMicros(adjustmentMicros) };
}
