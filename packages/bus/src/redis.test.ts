import { createErrorLogLimiter, RECONNECT_MAX_DELAY_MS, reconnectDelayMs, redactRedisUrl } from './redis';

describe('redactRedisUrl', () => {
  it('hides the password and user, keeps host, port and database', () => {
    expect(redactRedisUrl('redis://app:s3cret@cache.internal:6380/2')).toBe(
      'redis://***:***@cache.internal:6380/2',
    );
    expect(redactRedisUrl('rediss://:s3cret@cache.internal:6380')).toBe('rediss://:***@cache.internal:6380');
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('never echoes an unparseable URL (it may hold a secret)', () => {
    expect(redactRedisUrl('not a url s3cret')).toBe('[unparseable redis url]');
  });
});

describe('createErrorLogLimiter', () => {
  it('logs the first error, then one per window with the count of suppressed ones', () => {
    let now = 0;
    const limiter = createErrorLogLimiter(10_000, () => now);
    expect(limiter.record()).toEqual({ log: true, suppressed: 0 });
    now = 1_000;
    expect(limiter.record()).toEqual({ log: false, suppressed: 1 });
    now = 9_999;
    expect(limiter.record()).toEqual({ log: false, suppressed: 2 });
    now = 10_000;
    expect(limiter.record()).toEqual({ log: true, suppressed: 2 });
    now = 10_001;
    expect(limiter.record().log).toBe(false);
  });

  it('reset() returns how many errors the outage had and re-arms the first log', () => {
    let now = 0;
    const limiter = createErrorLogLimiter(10_000, () => now);
    limiter.record();
    limiter.record();
    limiter.record();
    expect(limiter.reset()).toBe(3);
    expect(limiter.reset()).toBe(0);
    now = 1;
    expect(limiter.record()).toEqual({ log: true, suppressed: 0 });
  });
});

describe('reconnectDelayMs', () => {
  it('climbs by 100 ms, never past a second (plus jitter), and never gives up', () => {
    const noJitter = () => 0;
    expect([1, 2, 5, 10, 11, 1_000].map((times) => reconnectDelayMs(times, noJitter))).toEqual([
      100, 200, 500, 1_000, 1_000, 1_000,
    ]);
    const maxJitter = () => 0.999;
    expect(reconnectDelayMs(50, maxJitter)).toBeLessThan(RECONNECT_MAX_DELAY_MS + 100);
    expect(reconnectDelayMs(50, maxJitter)).toBeGreaterThan(RECONNECT_MAX_DELAY_MS);
  });
});
