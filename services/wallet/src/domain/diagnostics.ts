import { type BurnWindow, usdFromMicros } from '@svc/contracts';
import type { LedgerTotals } from '@svc/db';

// Pure arithmetic of the spend diagnostics (spec §4.14 "spend forecasting", design "Wallet"):
// burn rates per trailing window, a straight-line projection, shares of the top capabilities.
// Money stays in exact micro-USD bigints; instants are ms since the epoch.

const HOUR_MS = 3_600_000;
/** ms: how far ahead a balance projection is still worth a date (beyond it: null). */
export const BALANCE_HORIZON_MS = 365 * 24 * HOUR_MS;

/** ms: length of each trailing window, ending at `as_of`. */
export const WINDOW_MS: Record<BurnWindow, number> = {
  '1h': HOUR_MS,
  '24h': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
};

export interface WindowSpend {
  window: BurnWindow;
  /** micro-USD captured in the window, positive. */
  spentMicros: bigint;
  runs: number;
}

/** micro-USD per hour over the window, rounded down to the micro-USD (6 decimals of USD). */
export function perHourMicros(spend: WindowSpend): bigint {
  return (spend.spentMicros * BigInt(HOUR_MS)) / BigInt(WINDOW_MS[spend.window]);
}

/** The client's ledger totals (@svc/db) and the spend to extrapolate. */
export interface ProjectionInput extends LedgerTotals {
  now: Date;
  /** End of the spend-cap period (exclusive). */
  periodEnd: Date;
  windows: readonly WindowSpend[];
}

export interface Projection {
  basisWindow: BurnWindow | null;
  perHourMicros: bigint;
  capReachedAt: Date | null;
  balanceEmptyAt: Date | null;
  note: string;
}

/** The window a projection extrapolates: 24h when it has spend, else 7d, else none. */
export function basisWindow(windows: readonly WindowSpend[]): WindowSpend | null {
  for (const name of ['24h', '7d'] as const) {
    const spend = windows.find((candidate) => candidate.window === name);
    if (spend && spend.spentMicros > 0n) return spend;
  }
  return null;
}

/**
 * Straight-line forecast at the basis window's rate. Works from the window's exact spend (not the
 * rounded hourly rate): ms until `amount` is spent = amount × window ms / window spend. An amount
 * already used up (≤ 0) is reached now. cap_reached_at only when there is a cap and the instant
 * lies before the period end (the cap resets then); balance_empty_at only within BALANCE_HORIZON_MS.
 */
export function projectSpend(input: ProjectionInput): Projection {
  const basis = basisWindow(input.windows);
  if (basis === null) {
    return {
      basisWindow: null,
      perHourMicros: 0n,
      capReachedAt: null,
      balanceEmptyAt: null,
      note: 'no charged runs in the last 7 days: nothing to project from',
    };
  }
  const now = input.now.getTime();
  const msUntilSpent = (amountMicros: bigint): bigint =>
    amountMicros <= 0n ? 0n : (amountMicros * BigInt(WINDOW_MS[basis.window])) / basis.spentMicros;
  const rate = perHourMicros(basis);
  const parts = [`straight line at the ${basis.window} rate of ${usdFromMicros(rate)} USD/hour`];

  let capReachedAt: Date | null = null;
  const cap = input.spendCapMicros;
  if (cap === null) {
    parts.push('no spend cap');
  } else {
    const left = cap - input.spentMicros - input.heldMicros;
    const capUsd = usdFromMicros(cap);
    const ms = msUntilSpent(left);
    if (BigInt(now) + ms < BigInt(input.periodEnd.getTime())) {
      capReachedAt = new Date(now + Number(ms));
      parts.push(
        left <= 0n
          ? `the ${capUsd} USD spend cap is already reached`
          : `the ${capUsd} USD spend cap is reached at ${capReachedAt.toISOString()}`,
      );
    } else {
      parts.push(
        `the ${capUsd} USD spend cap is not reached before the period ends at ${input.periodEnd.toISOString()}`,
      );
    }
  }

  let balanceEmptyAt: Date | null = null;
  const available = input.balanceMicros - input.heldMicros;
  const ms = msUntilSpent(available);
  if (ms <= BigInt(BALANCE_HORIZON_MS)) {
    balanceEmptyAt = new Date(now + Number(ms));
    parts.push(
      available <= 0n
        ? 'the balance is already used up'
        : `the balance is used up at ${balanceEmptyAt.toISOString()}`,
    );
  } else {
    parts.push('the balance lasts more than 365 days');
  }
  return {
    basisWindow: basis.window,
    perHourMicros: rate,
    capReachedAt,
    balanceEmptyAt,
    note: parts.join('; '),
  };
}

/** Share of `part` in `total` in percent, rounded half up to 1 decimal (0 when total is 0). */
export function sharePct(partMicros: bigint, totalMicros: bigint): number {
  if (totalMicros <= 0n) return 0;
  // Tenths of a percent, rounded half up: (part × 1000 × 2 + total) / (2 × total).
  const tenths = (partMicros * 2_000n + totalMicros) / (2n * totalMicros);
  return Number(tenths) / 10;
}
