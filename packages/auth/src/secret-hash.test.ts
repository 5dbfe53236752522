import { createHash } from 'node:crypto';
import { generateApiKey } from './api-key-format';
import { digestsEqual, hashSecret, SECRET_DIGEST_BYTES } from './secret-hash';

describe('hashSecret', () => {
  it('is SHA-256 of the secret text (32 bytes), not the secret itself', () => {
    const { secret } = generateApiKey();
    const digest = hashSecret(secret);
    expect(digest).toHaveLength(SECRET_DIGEST_BYTES);
    expect(digest.equals(createHash('sha256').update(secret).digest())).toBe(true);
    expect(digest.toString('latin1')).not.toContain(secret);
  });

  it('differs for different secrets', () => {
    expect(hashSecret(generateApiKey().secret).equals(hashSecret(generateApiKey().secret))).toBe(false);
  });
});

describe('digestsEqual', () => {
  it('is true only for the same digest', () => {
    const { secret } = generateApiKey();
    const stored = hashSecret(secret);
    expect(digestsEqual(hashSecret(secret), stored)).toBe(true);
    // One character changed: a different one than the secret's own last (random) character.
    const changed = `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`;
    expect(changed).not.toBe(secret);
    expect(digestsEqual(hashSecret(changed), stored)).toBe(false);
  });

  it('is false (and does not throw) for a missing or wrong-length stored digest', () => {
    const presented = hashSecret(generateApiKey().secret);
    expect(digestsEqual(presented, null)).toBe(false);
    expect(digestsEqual(presented, presented.subarray(0, 16))).toBe(false);
    expect(digestsEqual(presented, Buffer.concat([presented, Buffer.alloc(1)]))).toBe(false);
    expect(digestsEqual(presented.subarray(0, 31), presented.subarray(0, 31))).toBe(false);
  });

  it('accepts a Uint8Array from the database driver', () => {
    const { secret } = generateApiKey();
    const stored = new Uint8Array(hashSecret(secret));
    expect(digestsEqual(hashSecret(secret), stored)).toBe(true);
  });
});
