import { usdFromMicros, type WalletClearance } from '@svc/contracts';
import { type BalanceSnapshot, shownUsd } from './balance';

// Pure: whether a price fits what a client may still spend, and the words that say why
// (docs/decisions.md W1: remaining = max(0, min(balance − held, cap − spent − held))). A quote
// says it in the "would" form; a hold that no longer fits answers 402 with the same figures.

/** The clearance of every zero-price quote (a free capability, spec §1.7): no wallet read at all. */
export const FREE_CLEARANCE_REASON = 'free capability: no funds needed';
export const FREE_CLEARANCE: WalletClearance = { cleared: true, reason: FREE_CLEARANCE_REASON };

/** Which limit stops a price, when one does. Amounts in micro-USD. */
export type Shortfall =
  | { limit: 'balance'; availableMicros: bigint }
  | { limit: 'spend_cap'; leftMicros: bigint; capMicros: bigint };

/**
 * The limit that stops `priceMicros`, or null when the remaining amount covers it (exactly at the
 * limit too). When both limits are short, the smaller one is named (the cap on a tie goes to the
 * balance: topping up is what the client can do without an operator).
 */
export function findShortfall(priceMicros: bigint, snapshot: BalanceSnapshot): Shortfall | null {
  if (snapshot.remainingMicros >= priceMicros) return null;
  const byBalance = snapshot.balanceMicros - snapshot.heldMicros;
  const cap = snapshot.spendCapMicros;
  if (cap !== null) {
    const leftOfCap = cap - snapshot.spentMicros - snapshot.heldMicros;
    if (leftOfCap < byBalance) return { limit: 'spend_cap', leftMicros: leftOfCap, capMicros: cap };
  }
  return { limit: 'balance', availableMicros: byBalance };
}

/**
 * The words of a shortfall, naming the price, the limit and the figures (design "Errors"):
 * `insufficient balance: the price 0.004 USD exceeds the 0.001 USD available (balance 0.003 USD,
 * 0.002 USD held)`, or `spend cap exceeded: the price 0.004 USD exceeds the 0.002 USD left of the
 * 0.02 USD monthly spend cap (0.016 USD spent, 0.002 USD held)`. `would` gives the quote's form
 * ("would exceed"). Negative figures show as 0 (docs/decisions.md W2).
 */
export function shortfallMessage(
  priceMicros: bigint,
  snapshot: BalanceSnapshot,
  shortfall: Shortfall,
  mood: 'now' | 'would',
): string {
  const verb = mood === 'now' ? 'exceeds' : 'would exceed';
  const price = `the price ${usdFromMicros(priceMicros)} USD ${verb}`;
  const held = `${usdFromMicros(snapshot.heldMicros)} USD held`;
  if (shortfall.limit === 'balance') {
    return (
      `insufficient balance: ${price} the ${shownUsd(shortfall.availableMicros)} USD available ` +
      `(balance ${shownUsd(snapshot.balanceMicros)} USD, ${held})`
    );
  }
  return (
    `spend cap exceeded: ${price} the ${shownUsd(shortfall.leftMicros)} USD left of the ` +
    `${usdFromMicros(shortfall.capMicros)} USD monthly spend cap (${shownUsd(snapshot.spentMicros)} USD spent, ${held})`
  );
}

/**
 * A quote's clearance of `priceMicros` against `snapshot`, with every figure the decision was made
 * on (docs/decisions.md Q2). A zero price is FREE_CLEARANCE (no figures: no wallet read was made).
 */
export function clearAgainstBalance(priceMicros: bigint, snapshot: BalanceSnapshot): WalletClearance {
  if (priceMicros === 0n) return FREE_CLEARANCE;
  const shortfall = findShortfall(priceMicros, snapshot);
  const reason =
    shortfall === null
      ? `remaining ${usdFromMicros(snapshot.remainingMicros)} USD covers the price ${usdFromMicros(priceMicros)} USD`
      : shortfallMessage(priceMicros, snapshot, shortfall, 'would');
  return {
    cleared: shortfall === null,
    reason,
    balance_usd: shownUsd(snapshot.balanceMicros),
    held_usd: usdFromMicros(snapshot.heldMicros),
    spend_cap_usd: snapshot.spendCapMicros === null ? null : usdFromMicros(snapshot.spendCapMicros),
    spent_usd: shownUsd(snapshot.spentMicros),
    remaining_usd: usdFromMicros(snapshot.remainingMicros),
    remaining_after_usd: shortfall === null ? usdFromMicros(snapshot.remainingMicros - priceMicros) : '0.00',
  };
}

/** The 402 text of a hold that no longer fits, or null when it does. */
export function paymentRequiredMessage(priceMicros: bigint, snapshot: BalanceSnapshot): string | null {
  const shortfall = findShortfall(priceMicros, snapshot);
  return shortfall === null ? null : shortfallMessage(priceMicros, snapshot, shortfall, 'now');
}
