import { gcmOpen, gcmSeal, KEY_BYTES } from './aes-gcm';
import { KeyringError, VaultCryptoError } from './errors';

/**
 * What envelope encryption needs from key-encryption keys. Async on purpose: a KMS (AWS KMS,
 * HashiCorp Vault transit) can implement it with network calls and replace LocalKeyring unchanged.
 */
export interface KeyEncryptionKeys {
  /** The version new data keys are wrapped with. */
  readonly currentVersion: number;
  /** Every version that can unwrap, ascending. */
  readonly versions: readonly number[];
  /** Wraps a data key with `version` (default: current); `aad` is bound to the result. */
  wrap(dataKey: Uint8Array, aad: string, version?: number): Promise<Buffer>;
  /** Unwraps with `version`; throws VaultCryptoError (unknown_key_version, decrypt_failed). */
  unwrap(wrapped: Uint8Array, version: number, aad: string): Promise<Buffer>;
}

/** The JSON shape of a keyring (VAULT_KEYRING, VAULT_KEYRING_FILE). */
export interface KeyringDocument {
  current: number;
  keys: Array<{ version: number; key: string; [extra: string]: unknown }>;
  [extra: string]: unknown;
}

/** Largest version: key_version is a PostgreSQL integer column. */
export const MAX_KEY_VERSION = 2_147_483_647;
// Standard base64 of exactly 32 bytes: 43 characters and one `=` (the padding is optional).
const BASE64_32 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048](=)?$/;

function isVersion(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_KEY_VERSION;
}

/** `versions 1, 2` for messages. */
export function listVersions(versions: Iterable<number>): string {
  const list = [...versions];
  return list.length === 0 ? 'none' : `version${list.length === 1 ? '' : 's'} ${list.join(', ')}`;
}

/**
 * Checks a keyring document; `source` names where it came from in every message (a variable or a
 * file). Messages name the rule and the key version, never key text.
 */
export function parseKeyring(
  text: string,
  source: string,
): { document: KeyringDocument; keys: Map<number, Buffer> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error: it could quote key material.
    throw new KeyringError(
      `${source} is not valid JSON (expected {"current": 1, "keys": [{"version": 1, "key": "<base64 of 32 bytes>"}]})`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new KeyringError(`${source} must be a JSON object {"current": <version>, "keys": [...]}`);
  }
  const document = parsed as Record<string, unknown>;
  if (!Array.isArray(document.keys) || document.keys.length === 0) {
    throw new KeyringError(`${source}: "keys" must be a non-empty array of {"version", "key"}`);
  }
  const keys = new Map<number, Buffer>();
  const seen = new Map<string, number>();
  for (const [index, entry] of document.keys.entries()) {
    const at = `${source}: keys[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new KeyringError(`${at} must be an object {"version", "key"}`);
    }
    const { version, key } = entry as Record<string, unknown>;
    if (!isVersion(version)) {
      throw new KeyringError(`${at}: "version" must be an integer between 1 and ${MAX_KEY_VERSION}`);
    }
    if (keys.has(version)) throw new KeyringError(`${source}: key version ${version} appears twice`);
    if (typeof key !== 'string' || !BASE64_32.test(key)) {
      const length = typeof key === 'string' ? Buffer.from(key, 'base64').length : 0;
      throw new KeyringError(
        `${source}: key version ${version} must be base64 of exactly ${KEY_BYTES} random bytes ` +
          `(e.g. openssl rand -base64 32)${length > 0 ? `, got ${length} bytes` : ''}`,
      );
    }
    const previous = seen.get(key);
    if (previous !== undefined) {
      // A pasted copy would make a "rotation" to it change nothing.
      throw new KeyringError(`${source}: key versions ${previous} and ${version} hold the same key`);
    }
    seen.set(key, version);
    keys.set(version, Buffer.from(key, 'base64'));
  }
  if (!isVersion(document.current)) {
    throw new KeyringError(`${source}: "current" must be the integer version new values are sealed with`);
  }
  if (!keys.has(document.current)) {
    throw new KeyringError(
      `${source}: current key version ${document.current} is not in "keys" (${listVersions([...keys.keys()].sort((a, b) => a - b))})`,
    );
  }
  return { document: parsed as KeyringDocument, keys };
}

/** Key-encryption keys held in this process (from VAULT_KEYRING or VAULT_KEYRING_FILE). */
export class LocalKeyring implements KeyEncryptionKeys {
  readonly currentVersion: number;
  readonly versions: readonly number[];
  readonly #keys: ReadonlyMap<number, Buffer>;

  constructor(currentVersion: number, keys: ReadonlyMap<number, Buffer>) {
    if (!keys.has(currentVersion)) {
      throw new KeyringError(`current key version ${currentVersion} is not in the keyring`);
    }
    for (const [version, key] of keys) {
      if (key.length !== KEY_BYTES)
        throw new KeyringError(`key version ${version} is not ${KEY_BYTES} bytes`);
    }
    this.currentVersion = currentVersion;
    this.versions = Object.freeze([...keys.keys()].sort((a, b) => a - b));
    this.#keys = new Map(keys);
  }

  /** A keyring from its JSON text; `source` names it in errors (e.g. "VAULT_KEYRING"). */
  static fromJson(text: string, source: string): LocalKeyring {
    const { document, keys } = parseKeyring(text, source);
    return new LocalKeyring(document.current, keys);
  }

  #key(version: number): Buffer {
    const key = this.#keys.get(version);
    if (key === undefined) {
      throw new VaultCryptoError(
        'unknown_key_version',
        `key version ${version} is not in the keyring (${listVersions(this.versions)})`,
      );
    }
    return key;
  }

  async wrap(dataKey: Uint8Array, aad: string, version: number = this.currentVersion): Promise<Buffer> {
    if (dataKey.length !== KEY_BYTES) {
      throw new VaultCryptoError('invalid_input', `a data key must be ${KEY_BYTES} bytes`);
    }
    return gcmSeal(this.#key(version), dataKey, aad);
  }

  async unwrap(wrapped: Uint8Array, version: number, aad: string): Promise<Buffer> {
    const dataKey = gcmOpen(this.#key(version), wrapped, aad);
    if (dataKey === undefined || dataKey.length !== KEY_BYTES) {
      throw new VaultCryptoError(
        'decrypt_failed',
        `the data key could not be unwrapped with key version ${version}`,
      );
    }
    return dataKey;
  }
}
