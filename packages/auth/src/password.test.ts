import { verify as argonVerify } from '@node-rs/argon2';
import {
  checkPasswordPolicy,
  generatePassword,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PasswordPolicyError,
  verifyPassword,
} from './password';

// The real argon2 underneath, observed: which hashes a verification ran against.
jest.mock('@node-rs/argon2', () => {
  const actual = jest.requireActual<typeof import('@node-rs/argon2')>('@node-rs/argon2');
  return { ...actual, verify: jest.fn(actual.verify) };
});
const verifyMock = jest.mocked(argonVerify);

const PASSWORD = 'correct horse battery';

beforeEach(() => verifyMock.mockClear());

describe('hashPassword', () => {
  it('stores an argon2id PHC string with the stated parameters and a random salt, never the password', async () => {
    const first = await hashPassword(PASSWORD);
    const second = await hashPassword(PASSWORD);
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toContain(PASSWORD);
    expect(second).not.toBe(first);
  });

  it('refuses passwords outside the policy', async () => {
    await expect(hashPassword('x'.repeat(MIN_PASSWORD_LENGTH - 1))).rejects.toBeInstanceOf(
      PasswordPolicyError,
    );
    expect(() => checkPasswordPolicy('x'.repeat(MAX_PASSWORD_LENGTH + 1))).toThrow(PasswordPolicyError);
    expect(() => checkPasswordPolicy('x'.repeat(MIN_PASSWORD_LENGTH))).not.toThrow();
  });
});

describe('verifyPassword', () => {
  it('accepts the password and refuses any other', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(await verifyPassword(stored, PASSWORD)).toBe(true);
    expect(await verifyPassword(stored, `${PASSWORD}!`)).toBe(false);
    expect(await verifyPassword(stored, PASSWORD.toUpperCase())).toBe(false);
  });

  it('without a stored hash, still runs argon2 against a dummy hash of the same cost, and refuses', async () => {
    expect(await verifyPassword(null, PASSWORD)).toBe(false);
    expect(verifyMock).toHaveBeenCalledTimes(1);
    const [target] = verifyMock.mock.calls[0] ?? [];
    expect(String(target)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a corrupt stored value after the same work, without throwing', async () => {
    expect(await verifyPassword('not-a-phc-string', PASSWORD)).toBe(false);
    const targets = verifyMock.mock.calls.map(([hashed]) => String(hashed));
    expect(targets.some((hashed) => hashed.startsWith('$argon2id$v=19$m=19456,t=2,p=1$'))).toBe(true);
  });

  it('refuses an over-long password even when its first MAX characters match', async () => {
    const long = 'y'.repeat(MAX_PASSWORD_LENGTH);
    const stored = await hashPassword(long);
    expect(await verifyPassword(stored, long)).toBe(true);
    expect(await verifyPassword(stored, `${long}z`)).toBe(false);
  });
});

describe('generatePassword', () => {
  it('gives 20 characters that meet the policy, different each time, with no - or _', () => {
    const passwords = new Set(Array.from({ length: 50 }, generatePassword));
    expect(passwords.size).toBe(50);
    for (const password of passwords) {
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(() => checkPasswordPolicy(password)).not.toThrow();
    }
  });
});
