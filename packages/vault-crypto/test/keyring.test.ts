import { randomBytes } from 'node:crypto';
import { KeyringError, keyringFromEnv, LocalKeyring } from '../src/index';
import { keyringJson } from './support';

const KEY_A = randomBytes(32).toString('base64');
const KEY_B = randomBytes(32).toString('base64');

/** The KeyringError message for `document` (as JSON unless a string). */
function refusal(document: unknown): string {
  const text = typeof document === 'string' ? document : JSON.stringify(document);
  try {
    LocalKeyring.fromJson(text, 'VAULT_KEYRING');
  } catch (err) {
    if (!(err instanceof KeyringError)) throw err;
    // Whatever went wrong, no key text is repeated.
    for (const key of [KEY_A, KEY_B]) expect(err.message).not.toContain(key.slice(0, 16));
    return err.message;
  }
  throw new Error('expected a KeyringError');
}

describe('keyring parsing', () => {
  it('reads versions, the current one, and accepts unpadded base64 and extra fields', () => {
    const keyring = LocalKeyring.fromJson(
      JSON.stringify({
        current: 2,
        note: 'rotated',
        keys: [
          { version: 2, key: KEY_B.replace(/=$/, ''), created_at: '2026-01-01T00:00:00Z' },
          { version: 1, key: KEY_A },
        ],
      }),
      'VAULT_KEYRING',
    );
    expect(keyring.currentVersion).toBe(2);
    expect(keyring.versions).toEqual([1, 2]);
  });

  it.each([
    [
      'bad JSON',
      `{"current": 1, "keys": [{"version": 1, "key": "${KEY_A}"}`,
      /VAULT_KEYRING is not valid JSON/,
    ],
    ['not an object', '[]', /must be a JSON object/],
    ['no keys', { current: 1, keys: [] }, /"keys" must be a non-empty array/],
    ['a key that is not an object', { current: 1, keys: ['x'] }, /keys\[0\] must be an object/],
    [
      'a version that is not a positive integer',
      { current: 1, keys: [{ version: 0, key: KEY_A }] },
      /"version" must be an integer between 1 and/,
    ],
    [
      'a fractional version',
      { current: 1, keys: [{ version: 1.5, key: KEY_A }] },
      /"version" must be an integer/,
    ],
    [
      'a 16-byte key',
      { current: 1, keys: [{ version: 1, key: randomBytes(16).toString('base64') }] },
      /key version 1 must be base64 of exactly 32 random bytes .*got 16 bytes/,
    ],
    [
      'a 33-byte key',
      { current: 1, keys: [{ version: 1, key: randomBytes(33).toString('base64') }] },
      /got 33 bytes/,
    ],
    [
      'a hex key',
      { current: 1, keys: [{ version: 1, key: randomBytes(32).toString('hex') }] },
      /must be base64 of exactly 32/,
    ],
    ['a missing key', { current: 1, keys: [{ version: 1 }] }, /key version 1 must be base64/],
    [
      'a duplicate version',
      {
        current: 1,
        keys: [
          { version: 1, key: KEY_A },
          { version: 1, key: KEY_B },
        ],
      },
      /key version 1 appears twice/,
    ],
    [
      'the same key twice',
      {
        current: 2,
        keys: [
          { version: 1, key: KEY_A },
          { version: 2, key: KEY_A },
        ],
      },
      /key versions 1 and 2 hold the same key/,
    ],
    [
      'current not in keys',
      {
        current: 3,
        keys: [
          { version: 1, key: KEY_A },
          { version: 2, key: KEY_B },
        ],
      },
      /current key version 3 is not in "keys" \(versions 1, 2\)/,
    ],
    ['no current', { keys: [{ version: 1, key: KEY_A }] }, /"current" must be the integer version/],
  ])('refuses %s', (_name, document, message) => {
    expect(refusal(document)).toMatch(message);
  });

  it('a data key must be 32 bytes to be wrapped', async () => {
    const keyring = LocalKeyring.fromJson(keyringJson([1]), 'k');
    await expect(keyring.wrap(randomBytes(16), 'aad')).rejects.toThrow('a data key must be 32 bytes');
  });
});

describe('keyringFromEnv', () => {
  it('takes an inline keyring', async () => {
    const handle = keyringFromEnv({ VAULT_KEYRING: keyringJson([1, 2]) });
    expect(handle.keys.currentVersion).toBe(2);
    await handle.close();
  });

  it('refuses both variables, and neither, naming them', () => {
    expect(() => keyringFromEnv({ VAULT_KEYRING: keyringJson([1]), VAULT_KEYRING_FILE: '/x' })).toThrow(
      'set only one of VAULT_KEYRING and VAULT_KEYRING_FILE',
    );
    expect(() => keyringFromEnv({ VAULT_KEYRING: '  ' })).toThrow(
      /required: VAULT_KEYRING_FILE .* or VAULT_KEYRING/,
    );
  });

  it('names the variable of a bad inline keyring', () => {
    expect(() => keyringFromEnv({ VAULT_KEYRING: '{"current":1}' })).toThrow(
      /^VAULT_KEYRING: "keys" must be/,
    );
  });

  it('names a missing file', () => {
    expect(() => keyringFromEnv({ VAULT_KEYRING_FILE: '/nonexistent/vault-keyring.json' })).toThrow(
      'VAULT_KEYRING_FILE /nonexistent/vault-keyring.json does not exist',
    );
  });
});
