import { createHash, createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import type { SignInGate } from '../ports';
import { SIGN_IN_LIMITS, type SignInThrottle } from './sign-in';

// ms: the longest an attempt waits for Redis before the in-process count takes over (as the API's
// budgets do, rate-limit/limiter.ts).
const REDIS_TIMEOUT_MS = 500;

export interface SignInLimits {
  readonly accountFailures: number;
  readonly addressFailures: number;
  readonly windowSeconds: number;
}

/** The two counters (rate-limiter-flexible fixed windows): per email and per address. */
interface Limiters {
  readonly account: RateLimiterAbstract | RLWrapperTimeouts;
  readonly address: RateLimiterAbstract | RLWrapperTimeouts;
}

/**
 * The sign-in throttle over rate-limiter-flexible (SignInThrottle's rules). Counter keys never hold
 * the email or the address themselves (no personal data at rest in Redis, issue 13): each is
 * SHA-256 (HMAC-SHA256 under `hashKey` when given) of the value, base64url.
 */
export class RateLimiterSignInThrottle implements SignInThrottle {
  constructor(
    private readonly limiters: Limiters,
    private readonly hashKey?: Uint8Array,
  ) {}

  async begin(email: string, ip: string): Promise<number> {
    const accountKey = this.keyOf('e', email);
    const addressKey = this.keyOf('a', ip);
    const forAccount = await spend(this.limiters.account, accountKey);
    if (forAccount > 0) return forAccount;
    const forAddress = await spend(this.limiters.address, addressKey);
    if (forAddress > 0) {
      // Refused for the address: this attempt does not count against the account either.
      await this.limiters.account.reward(accountKey, 1);
      return forAddress;
    }
    return 0;
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([
      this.limiters.account.delete(this.keyOf('e', email)),
      this.limiters.address.reward(this.keyOf('a', ip), 1),
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

/**
 * Spends one point. 0 when it fitted; else seconds until the window ends (at least 1). Over the
 * limit, rate-limiter-flexible rejects with a RateLimiterRes; anything else is a store failure.
 */
async function spend(limiter: RateLimiterAbstract | RLWrapperTimeouts, key: string): Promise<number> {
  try {
    await limiter.consume(key, 1);
    return 0;
  } catch (err) {
    if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw err;
  }
}

function memoryLimiters(
  prefix: string,
  limits: SignInLimits,
): { account: RateLimiterMemory; address: RateLimiterMemory } {
  return {
    account: new RateLimiterMemory({
      keyPrefix: `${prefix}:account`,
      points: limits.accountFailures,
      duration: limits.windowSeconds,
    }),
    address: new RateLimiterMemory({
      keyPrefix: `${prefix}:address`,
      points: limits.addressFailures,
      duration: limits.windowSeconds,
    }),
  };
}

/**
 * The gateway's throttle: counters in Redis (`<BUS_PREFIX>:signin:account|address:<hash>`), shared
 * by every gateway process, on the bus's producer connection. Redis down or slower than 500 ms: the
 * attempt is counted in this process's memory instead (rate-limiter-flexible's insurance limiter),
 * so sign-in keeps working and stays throttled per process (the API budgets' choice too).
 */
export function redisSignInThrottle(options: {
  readonly redis: Redis;
  /** BUS_PREFIX. */
  readonly prefix: string;
  /** Keys the counter names (HMAC); without it a plain SHA-256. */
  readonly hashKey?: Uint8Array;
  readonly limits?: SignInLimits;
}): RateLimiterSignInThrottle {
  const limits = options.limits ?? SIGN_IN_LIMITS;
  const prefix = `${options.prefix}:signin`;
  const insurance = memoryLimiters(prefix, limits);
  const shared = (which: 'account' | 'address', points: number) =>
    new RLWrapperTimeouts({
      limiter: new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix: `${prefix}:${which}`,
        points,
        duration: limits.windowSeconds,
        rejectIfRedisNotReady: true,
        insuranceLimiter: insurance[which],
      }),
      timeoutMs: REDIS_TIMEOUT_MS,
    });
  return new RateLimiterSignInThrottle(
    {
      account: shared('account', limits.accountFailures),
      address: shared('address', limits.addressFailures),
    },
    options.hashKey,
  );
}

/** The same rules in this process's memory only: tests, and a gateway without Redis. */
export function memorySignInThrottle(limits: SignInLimits = SIGN_IN_LIMITS): RateLimiterSignInThrottle {
  return new RateLimiterSignInThrottle(memoryLimiters('signin', limits));
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
