import { isUniqueViolation, lockWalletAccount, type PrismaClient } from '@svc/db';
import { absMicros } from './balance';
import { MONEY_TRANSACTION_OPTIONS } from './holds';

/** A `wallet.settle` request: what the orchestrator decided once a paid run was final. */
export interface SettleCommand {
  runId: string;
  clientId: string;
  /** capture: the run completed and is charged; release: it did not, the hold is given back. */
  outcome: 'capture' | 'release';
  /** Ledger note, e.g. "run completed", "run failed: provider_unavailable". */
  reason: string;
}

export interface SettleResult {
  /** False when nothing was written: no hold for the run, or it was captured or released already. */
  applied: boolean;
}

/**
 * Captures or releases the hold of a run, once (design "Wallet", `wallet.settle` RPC). Under the client's
 * lock: no hold → not applied; a capture or release already there → not applied (a repeated
 * call, or a release arriving after the capture of the same run, changes nothing). A capture line
 * is −|hold| (money leaves the balance, docs/decisions.md W3); a release line is +|hold| and only
 * closes the hold (it is never summed). Both carry the hold's slug and the reason as note.
 */
export async function settleRun(
  prisma: PrismaClient,
  command: SettleCommand,
  options: { now?: Date } = {},
): Promise<SettleResult> {
  const now = options.now ?? new Date();
  try {
    return await prisma.$transaction(async (tx) => {
      await lockWalletAccount(tx, command.clientId);
      const lines = await tx.ledgerEntry.findMany({
        where: {
          runId: command.runId,
          clientId: command.clientId,
          kind: { in: ['hold', 'capture', 'release'] },
        },
      });
      const hold = lines.find((line) => line.kind === 'hold');
      if (!hold || lines.some((line) => line.kind !== 'hold')) return { applied: false };
      const size = absMicros(hold.amountMicros);
      await tx.ledgerEntry.create({
        data: {
          clientId: command.clientId,
          kind: command.outcome,
          amountMicros: command.outcome === 'capture' ? -size : size,
          runId: command.runId,
          slug: hold.slug,
          note: command.reason,
          createdAt: now,
        },
      });
      return { applied: true };
    }, MONEY_TRANSACTION_OPTIONS);
  } catch (err) {
    // Unique (run_id, kind): the same line already written; cannot happen under the lock, kept as the last word.
    if (isUniqueViolation(err)) return { applied: false };
    throw err;
  }
}
