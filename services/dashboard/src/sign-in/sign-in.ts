// Sign-in as a domain function (issue 18): the throttle first, then the password, then the
// throttle's bookkeeping. No express, no Redis: the account store and the throttle come as ports.

/** Per account (email) and per source address, failed attempts allowed in one window. */
export const SIGN_IN_LIMITS = {
  /** Failures for one account (email, whether or not it exists) per window. */
  accountFailures: 5,
  /** Failures from one address (any emails) per window: a few people behind one NAT may mistype. */
  addressFailures: 20,
  /** The window, seconds (15 minutes), counted from the first failure in it. */
  windowSeconds: 15 * 60,
} as const;

/**
 * Counts sign-in attempts. An attempt is counted when it starts (`begin`) and given back when it
 * succeeds, rather than counted after it fails: concurrent attempts cannot all pass the check
 * before any failure is recorded, so a burst of parallel guesses gets no more than the limit.
 */
export interface SignInThrottle {
  /**
   * Counts one attempt against the email's and the address's budgets. 0: go ahead. Otherwise the
   * seconds until an attempt is allowed again (then the attempt is not counted).
   */
  begin(email: string, ip: string): Promise<number>;
  /** The password was right: the email's failures are forgotten, the address's attempt given back. */
  succeeded(email: string, ip: string): Promise<void>;
}

/** What sign-in needs from the account store (@svc/auth AccountStore.verifyPassword). */
export interface SignInAccounts<A> {
  /** The account, or null for a wrong email or password; the same work either way (dummy hash). */
  verifyPassword(email: string, password: string): Promise<A | null>;
}

export type SignInOutcome<A> =
  | { readonly kind: 'signed-in'; readonly account: A }
  /** Wrong email or wrong password: one answer for both. */
  | { readonly kind: 'refused' }
  | { readonly kind: 'throttled'; readonly retryAfterSeconds: number };

/** Longest email / password looked at; longer ones are refused like a wrong password (and counted). */
export const MAX_SIGN_IN_EMAIL = 254;
export const MAX_SIGN_IN_PASSWORD = 256;

/**
 * One sign-in attempt. The email is trimmed and lowercased (as the account store keeps it), so
 * `A@x` and `a@x` share one budget. An over-long email or password is refused without reaching the
 * store but still counted, so nothing about it differs from a wrong password except the work.
 */
export async function signIn<A>(
  deps: { accounts: SignInAccounts<A>; throttle: SignInThrottle },
  input: { email: string; password: string; ip: string },
): Promise<SignInOutcome<A>> {
  const email = input.email.trim().toLowerCase();
  const wait = await deps.throttle.begin(email, input.ip);
  if (wait > 0) return { kind: 'throttled', retryAfterSeconds: wait };
  const tooLong = email.length > MAX_SIGN_IN_EMAIL || input.password.length > MAX_SIGN_IN_PASSWORD;
  const account = tooLong ? null : await deps.accounts.verifyPassword(email, input.password);
  if (account === null) return { kind: 'refused' };
  await deps.throttle.succeeded(email, input.ip);
  return { kind: 'signed-in', account };
}

/** "Try again in N minutes." for a wait in seconds (at least one minute, rounded up). */
export function throttledMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
