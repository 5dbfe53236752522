/**
 * Two kinds of failure, kept apart because callers treat them differently: a KeyringError is a
 * configuration problem found at start or on a reload (the operator fixes the file or variable); a
 * VaultCryptoError is a value that cannot be sealed or opened at run time. Neither message ever holds
 * key bytes, data-key bytes or a value: they name the subject, the key version and the rule only.
 */

export type VaultCryptoErrorCode =
  /** The row names a key version the keyring does not hold (removed too early, or another keyring). */
  | 'unknown_key_version'
  /** GCM authentication failed: other client, subject or key version, or tampered/cut bytes. */
  | 'decrypt_failed'
  /** The caller passed something unusable (a client id with `|`, a ciphertext too short to be ours). */
  | 'invalid_input';

export class VaultCryptoError extends Error {
  readonly code: VaultCryptoErrorCode;

  constructor(code: VaultCryptoErrorCode, message: string) {
    // No `cause`: node's OpenSSL errors say little, and nothing from below may carry bytes upward.
    super(message);
    this.name = 'VaultCryptoError';
    this.code = code;
  }
}

/** The keyring's configuration (VAULT_KEYRING / VAULT_KEYRING_FILE or the file itself) is unusable. */
export class KeyringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyringError';
  }
}
