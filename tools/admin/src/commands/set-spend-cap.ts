import { usdFromMicros } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import type { SetSpendCapArgs } from '../args';
import { clientIdByName } from './client-by-name';

export interface SetSpendCapOutput {
  client_id: string;
  /** The cap now; null: no cap. */
  spend_cap_usd: string | null;
}

/**
 * Sets or removes the client's monthly spend cap (wallet.accounts). One UPDATE: a hold checking
 * the cap under the account's row lock sees either the old or the new cap, never a mix.
 */
export async function setSpendCap(prisma: PrismaClient, args: SetSpendCapArgs): Promise<SetSpendCapOutput> {
  const clientId = await clientIdByName(prisma, args.clientName);
  const account = await prisma.walletAccount.upsert({
    where: { clientId },
    create: { clientId, spendCapMicros: args.spendCapMicros },
    update: { spendCapMicros: args.spendCapMicros },
  });
  return {
    client_id: clientId,
    spend_cap_usd: account.spendCapMicros === null ? null : usdFromMicros(account.spendCapMicros),
  };
}
