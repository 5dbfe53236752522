import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { busEncryptionEnv, ConfigError, loadEnv } from '../src';

const Env = z.object({ ...busEncryptionEnv });

function problemOf(source: Record<string, string>): string {
  try {
    loadEnv(Env, source);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('BUS_ENCRYPTION_KEY', () => {
  const key = randomBytes(32);

  it.each([
    ['base64', key.toString('base64')],
    ['base64 without padding', key.toString('base64').replace(/=+$/, '')],
    ['base64url', key.toString('base64url')],
    ['hex', key.toString('hex')],
  ])('reads a 32-byte key in %s', (_encoding, text) => {
    expect(loadEnv(Env, { BUS_ENCRYPTION_KEY: text }).BUS_ENCRYPTION_KEY).toEqual([key]);
  });

  it('reads a comma list, current key first, blanks around commas ignored', () => {
    const older = randomBytes(32);
    const text = ` ${key.toString('base64')} , ${older.toString('hex')}`;
    expect(loadEnv(Env, { BUS_ENCRYPTION_KEY: text }).BUS_ENCRYPTION_KEY).toEqual([key, older]);
  });

  it('is required, and says how to get one', () => {
    expect(problemOf({})).toMatch(/BUS_ENCRYPTION_KEY: required: .*openssl rand -base64 32/);
    expect(problemOf({ BUS_ENCRYPTION_KEY: '  ' })).toMatch(/BUS_ENCRYPTION_KEY: required/);
  });

  it.each([
    ['a short key', randomBytes(16).toString('base64'), 'the key must be 32 bytes'],
    ['a passphrase', 'correct horse battery staple', 'the key must be 32 bytes'],
    ['a bad second key', `${key.toString('base64')},${randomBytes(31).toString('hex')}`, 'key 2 of 2'],
    ['an empty entry', `${key.toString('base64')},`, 'key 2 of 2'],
  ])('refuses %s without echoing it', (_what, text, message) => {
    const problem = problemOf({ BUS_ENCRYPTION_KEY: text });
    expect(problem).toContain(message);
    expect(problem).toContain('(value not shown)');
    for (const part of text.split(',')) if (part.length > 0) expect(problem).not.toContain(part.slice(0, 8));
  });
});
