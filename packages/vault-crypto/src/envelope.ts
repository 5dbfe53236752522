import { randomBytes } from 'node:crypto';
import { dataKeyAad, valueAad } from './aad';
import { gcmOpen, gcmSeal, KEY_BYTES } from './aes-gcm';
import { VaultCryptoError } from './errors';
import type { KeyEncryptionKeys } from './keyring';

/**
 * Envelope encryption of one vault value (a field or an extraction candidate): a fresh data key per
 * value seals it, the keyring's current key-encryption key wraps the data key. Rotation then
 * re-wraps 32-byte data keys instead of re-encrypting values, and deleting a row's wrapped key
 * shreds its value. What to store per row: ciphertext, wrappedKey, keyVersion.
 */

/** Where a value belongs: its client and its subject (fieldSubject / candidateSubject). */
export interface ValueOwner {
  kek: KeyEncryptionKeys;
  clientId: string;
  subject: string;
}

export interface SealedValue {
  /** iv | AES-256-GCM(value) | tag, under the data key. */
  ciphertext: Uint8Array<ArrayBuffer>;
  /** iv | AES-256-GCM(data key) | tag, under key version `keyVersion`. */
  wrappedKey: Uint8Array<ArrayBuffer>;
  keyVersion: number;
}

export interface WrappedDataKey {
  wrappedKey: Uint8Array<ArrayBuffer>;
  keyVersion: number;
}

/** A copy on a plain ArrayBuffer: what Prisma's Bytes columns take, and independent of node's pool. */
function plain(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

/** The data key of a row, or VaultCryptoError naming the subject (never the bytes). */
async function unwrapDataKey(owner: ValueOwner, wrappedKey: Uint8Array, keyVersion: number): Promise<Buffer> {
  const aad = dataKeyAad(owner.clientId, owner.subject, keyVersion);
  try {
    return await owner.kek.unwrap(wrappedKey, keyVersion, aad);
  } catch (err) {
    if (err instanceof VaultCryptoError && err.code === 'decrypt_failed') throw failure(owner.subject);
    throw err;
  }
}

function failure(subject: string): VaultCryptoError {
  return new VaultCryptoError(
    'decrypt_failed',
    `the value of ${subject} could not be decrypted (other client, subject or key version, or altered bytes)`,
  );
}

/** Seals `plaintext` (UTF-8) for `clientId`/`subject` under a fresh data key wrapped with the current version. */
export async function sealValue(input: ValueOwner & { plaintext: string }): Promise<SealedValue> {
  const aad = valueAad(input.clientId, input.subject);
  const dataKey = randomBytes(KEY_BYTES);
  const plaintext = Buffer.from(input.plaintext, 'utf8');
  try {
    const ciphertext = gcmSeal(dataKey, plaintext, aad);
    // Read once: a keyring reload between here and wrap must not split the version and its AAD.
    const keyVersion = input.kek.currentVersion;
    const wrappedKey = await input.kek.wrap(
      dataKey,
      dataKeyAad(input.clientId, input.subject, keyVersion),
      keyVersion,
    );
    return { ciphertext: plain(ciphertext), wrappedKey: plain(wrappedKey), keyVersion };
  } finally {
    // Best effort: the JS string the caller holds cannot be wiped, but these buffers can.
    dataKey.fill(0);
    plaintext.fill(0);
  }
}

/** Opens a sealed value; throws VaultCryptoError (unknown_key_version, decrypt_failed, invalid_input). */
export async function openValue(
  input: ValueOwner & { ciphertext: Uint8Array; wrappedKey: Uint8Array; keyVersion: number },
): Promise<string> {
  const aad = valueAad(input.clientId, input.subject);
  const dataKey = await unwrapDataKey(input, input.wrappedKey, input.keyVersion);
  try {
    const plaintext = gcmOpen(dataKey, input.ciphertext, aad);
    if (plaintext === undefined) throw failure(input.subject);
    try {
      return plaintext.toString('utf8');
    } finally {
      plaintext.fill(0);
    }
  } finally {
    dataKey.fill(0);
  }
}

/**
 * Re-wraps a row's data key with `toVersion` (default: the current version); the value's ciphertext
 * is untouched. The old version must still be in the keyring. Idempotent in effect: a row already at
 * the target gets a fresh wrapping under the same version.
 */
export async function rewrap(
  input: ValueOwner & { wrappedKey: Uint8Array; keyVersion: number; toVersion?: number },
): Promise<WrappedDataKey> {
  const dataKey = await unwrapDataKey(input, input.wrappedKey, input.keyVersion);
  try {
    const keyVersion = input.toVersion ?? input.kek.currentVersion;
    const wrappedKey = await input.kek.wrap(
      dataKey,
      dataKeyAad(input.clientId, input.subject, keyVersion),
      keyVersion,
    );
    return { wrappedKey: plain(wrappedKey), keyVersion };
  } finally {
    dataKey.fill(0);
  }
}
