import { SIGN_IN_LIMITS, signIn, throttledMessage } from './sign-in';
import { memorySignInThrottle, signInGate } from './throttle';

const PASSWORD = 'the right password';

/** Accounts by email; counts the password checks so tests see what reached the store. */
function fakeAccounts() {
  const checks: string[] = [];
  return {
    checks,
    verifyPassword: async (email: string, password: string) => {
      checks.push(email);
      return email === 'ada@example.com' && password === PASSWORD ? { id: 'acct-ada', email } : null;
    },
  };
}

describe('signIn', () => {
  it('signs in with the right password, and refuses a wrong password and an unknown email alike', async () => {
    const deps = { accounts: fakeAccounts(), throttle: memorySignInThrottle() };
    expect(await signIn(deps, { email: ' Ada@Example.COM ', password: PASSWORD, ip: '10.0.0.1' })).toEqual({
      kind: 'signed-in',
      account: { id: 'acct-ada', email: 'ada@example.com' },
    });
    const wrongPassword = await signIn(deps, { email: 'ada@example.com', password: 'nope', ip: '10.0.0.1' });
    const unknownEmail = await signIn(deps, { email: 'bob@example.com', password: PASSWORD, ip: '10.0.0.1' });
    expect(wrongPassword).toEqual({ kind: 'refused' });
    expect(unknownEmail).toEqual(wrongPassword);
  });

  it('after 5 failures for one account (any case, any address) refuses the 6th without checking it', async () => {
    const deps = { accounts: fakeAccounts(), throttle: memorySignInThrottle() };
    for (let i = 0; i < SIGN_IN_LIMITS.accountFailures; i += 1) {
      const outcome = await signIn(deps, {
        email: i % 2 ? 'ADA@example.com' : 'ada@example.com',
        password: 'x',
        ip: `10.0.0.${i}`,
      });
      expect(outcome.kind).toBe('refused');
    }
    const checked = deps.accounts.checks.length;
    const sixth = await signIn(deps, { email: 'ada@example.com', password: PASSWORD, ip: '10.9.9.9' });
    expect(sixth.kind).toBe('throttled');
    if (sixth.kind !== 'throttled') throw new Error('unreachable');
    expect(sixth.retryAfterSeconds).toBeGreaterThan(0);
    expect(sixth.retryAfterSeconds).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowSeconds);
    expect(deps.accounts.checks).toHaveLength(checked); // the password was not even looked at
    // Another account is not affected.
    expect((await signIn(deps, { email: 'bob@example.com', password: 'x', ip: '10.9.9.9' })).kind).toBe(
      'refused',
    );
  });

  it('after 20 failures from one address refuses it for any email, other addresses still pass', async () => {
    const deps = { accounts: fakeAccounts(), throttle: memorySignInThrottle() };
    for (let i = 0; i < SIGN_IN_LIMITS.addressFailures; i += 1) {
      expect(
        (await signIn(deps, { email: `user${i}@example.com`, password: 'x', ip: '192.0.2.7' })).kind,
      ).toBe('refused');
    }
    expect((await signIn(deps, { email: 'ada@example.com', password: PASSWORD, ip: '192.0.2.7' })).kind).toBe(
      'throttled',
    );
    expect((await signIn(deps, { email: 'ada@example.com', password: PASSWORD, ip: '192.0.2.8' })).kind).toBe(
      'signed-in',
    );
  });

  it('a success clears the account failures, so an owner who mistypes is not locked out later', async () => {
    const deps = { accounts: fakeAccounts(), throttle: memorySignInThrottle() };
    const attempt = (password: string) =>
      signIn(deps, { email: 'ada@example.com', password, ip: '10.0.0.1' });
    for (let i = 0; i < SIGN_IN_LIMITS.accountFailures - 1; i += 1)
      expect((await attempt('x')).kind).toBe('refused');
    expect((await attempt(PASSWORD)).kind).toBe('signed-in');
    for (let i = 0; i < SIGN_IN_LIMITS.accountFailures; i += 1)
      expect((await attempt('x')).kind).toBe('refused');
    expect((await attempt(PASSWORD)).kind).toBe('throttled');
  });

  it('counts parallel attempts as they start: a burst gets no more guesses than the limit', async () => {
    const deps = { accounts: fakeAccounts(), throttle: memorySignInThrottle() };
    const burst = await Promise.all(
      Array.from({ length: 12 }, () =>
        signIn(deps, { email: 'ada@example.com', password: 'x', ip: '10.0.0.1' }),
      ),
    );
    expect(burst.filter((o) => o.kind === 'refused')).toHaveLength(SIGN_IN_LIMITS.accountFailures);
    expect(deps.accounts.checks).toHaveLength(SIGN_IN_LIMITS.accountFailures);
  });

  it('refuses over-long input without the store, and counts it', async () => {
    const deps = {
      accounts: fakeAccounts(),
      throttle: memorySignInThrottle({ accountFailures: 1, addressFailures: 99, windowSeconds: 60 }),
    };
    expect((await signIn(deps, { email: 'ada@example.com', password: 'p'.repeat(257), ip: '1' })).kind).toBe(
      'refused',
    );
    expect(deps.accounts.checks).toEqual([]);
    expect((await signIn(deps, { email: 'ada@example.com', password: PASSWORD, ip: '1' })).kind).toBe(
      'throttled',
    );
  });
});

describe('signInGate (the dashboard port over a throttle)', () => {
  it('retryAfterSeconds counts the attempt, succeeded gives it back', async () => {
    const gate = signInGate(
      memorySignInThrottle({ accountFailures: 2, addressFailures: 99, windowSeconds: 900 }),
    );
    expect(await gate.retryAfterSeconds('ada@example.com', '1')).toBe(0);
    await gate.failed('ada@example.com', '1');
    expect(await gate.retryAfterSeconds('ada@example.com', '1')).toBe(0);
    await gate.succeeded('ada@example.com', '1');
    expect(await gate.retryAfterSeconds('ada@example.com', '1')).toBe(0);
    await gate.failed('ada@example.com', '1');
    expect(await gate.retryAfterSeconds('ada@example.com', '1')).toBe(0);
    await gate.failed('ada@example.com', '1');
    const wait = await gate.retryAfterSeconds('ada@example.com', '1');
    expect(wait).toBeGreaterThan(840);
    expect(wait).toBeLessThanOrEqual(900);
  });
});

describe('throttledMessage', () => {
  it('rounds up to whole minutes, at least one', () => {
    expect(throttledMessage(1)).toBe('Too many sign-in attempts. Try again in 1 minute.');
    expect(throttledMessage(61)).toBe('Too many sign-in attempts. Try again in 2 minutes.');
    expect(throttledMessage(900)).toBe('Too many sign-in attempts. Try again in 15 minutes.');
  });
});
