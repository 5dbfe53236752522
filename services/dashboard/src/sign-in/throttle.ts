import { createHash, createHmac } from 'node:crypto';
import { SharedCounter, type SharedCounterOptions } from '@svc/shared-counter';
import type { Redis } from 'ioredis';
import type { SignInGate } from '../ports';
import { SIGN_IN_LIMITS, type SignInThrottle } from './sign-in';

export interface SignInLimits {
  readonly accountFailures: number;
  readonly addressFailures: number;
  readonly windowSeconds: number;
}

/** The two counters (fixed windows): per email and per address. */
export interface SignInCounters {
  readonly account: Pick<SharedCounter, 'consume' | 'reward' | 'delete'>;
  readonly address: Pick<SharedCounter, 'consume' | 'reward' | 'delete'>;
}

/**
 * The sign-in throttle over two counters (SignInThrottle's rules). Counter keys never hold the
 * email or the address themselves (no personal data at rest in Redis, issue 13): each is SHA-256
 * (HMAC-SHA256 under `hashKey` when given) of the value, base64url.
 */
export class CountingSignInThrottle implements SignInThrottle {
  constructor(
    private readonly counters: SignInCounters,
    private readonly hashKey?: Uint8Array,
  ) {}

  async begin(email: string, ip: string): Promise<number> {
    const accountKey = this.keyOf('e', email);
    const addressKey = this.keyOf('a', ip);
    const forAccount = await spend(this.counters.account, accountKey);
    if (forAccount > 0) return forAccount;
    const forAddress = await spend(this.counters.address, addressKey);
    if (forAddress > 0) {
      // Refused for the address: this attempt does not count against the account either.
      await this.counters.account.reward(accountKey, 1);
      return forAddress;
    }
    return 0;
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([
      this.counters.account.delete(this.keyOf('e', email)),
      this.counters.address.reward(this.keyOf('a', ip), 1),
    ]);
  }

  private keyOf(kind: 'e' | 'a', value: string): string {
    const text = `${kind}:${value.trim().toLowerCase()}`;
    const digest =
      this.hashKey === undefined
        ? createHash('sha256').update(text).digest()
        : createHmac('sha256', this.hashKey).update(text).digest();
    return `${kind}:${digest.subarray(0, 18).toString('base64url')}`;
  }
}

/** Spends one point. 0 when it fitted; else seconds until the window ends (at least 1). */
async function spend(counter: SignInCounters['account'], key: string): Promise<number> {
  const count = await counter.consume(key, 1);
  return count.over ? Math.max(1, Math.ceil(count.resetMs / 1000)) : 0;
}

/**
 * The dashboard's throttle: counters in Redis (`<BUS_PREFIX>:signin:account|address:<hash>`), shared
 * by every dashboard process, on the bus's producer connection; the same @svc/shared-counter
 * mechanism as the gateway's rate limits, but exact: every attempt reaches the store, so a success
 * gives its points back at once. Redis down or slower than 500 ms: the attempt is counted in this
 * process's memory instead, so sign-in keeps working and stays throttled per process.
 */
export function redisSignInThrottle(options: {
  readonly redis: Redis;
  /** BUS_PREFIX. */
  readonly prefix: string;
  /** Keys the counter names (HMAC); without it a plain SHA-256. */
  readonly hashKey?: Uint8Array;
  readonly limits?: SignInLimits;
  /** Told each time a count falls back to memory (main.ts logs it, throttled). */
  readonly onFallback?: SharedCounterOptions['onFallback'];
}): CountingSignInThrottle {
  const limits = options.limits ?? SIGN_IN_LIMITS;
  const counter = (which: 'account' | 'address', points: number) =>
    new SharedCounter({
      redis: options.redis,
      keyPrefix: `${options.prefix}:signin:${which}`,
      points,
      windowSeconds: limits.windowSeconds,
      exact: true,
      ...(options.onFallback === undefined ? {} : { onFallback: options.onFallback }),
    });
  return new CountingSignInThrottle(
    {
      account: counter('account', limits.accountFailures),
      address: counter('address', limits.addressFailures),
    },
    options.hashKey,
  );
}

/** The same rules in this process's memory only: tests, and a process without Redis. */
export function memorySignInThrottle(limits: SignInLimits = SIGN_IN_LIMITS): CountingSignInThrottle {
  const counter = (which: 'account' | 'address', points: number) =>
    new SharedCounter({
      keyPrefix: `signin:${which}`,
      points,
      windowSeconds: limits.windowSeconds,
      exact: true,
    });
  return new CountingSignInThrottle({
    account: counter('account', limits.accountFailures),
    address: counter('address', limits.addressFailures),
  });
}

/**
 * The dashboard's SignInGate (ports.ts) over a throttle: `retryAfterSeconds` begins the attempt
 * (counts it), `failed` has nothing left to do, `succeeded` gives it back. Call them in that order
 * once per POST, as pages/sign-in.tsx does.
 */
export function signInGate(throttle: SignInThrottle): SignInGate {
  return {
    retryAfterSeconds: (email, ip) => throttle.begin(email, ip),
    failed: async () => {},
    succeeded: (email, ip) => throttle.succeeded(email, ip),
  };
}
