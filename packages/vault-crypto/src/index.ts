export { candidateSubject, dataKeyAad, fieldSubject, valueAad } from './aad';
export { IV_BYTES, KEY_BYTES, TAG_BYTES } from './aes-gcm';
export {
  openValue,
  rewrap,
  type SealedValue,
  sealValue,
  type ValueOwner,
  type WrappedDataKey,
} from './envelope';
export { KeyringError, VaultCryptoError, type VaultCryptoErrorCode } from './errors';
export {
  type KeyEncryptionKeys,
  type KeyringDocument,
  LocalKeyring,
  MAX_KEY_VERSION,
  parseKeyring,
} from './keyring';
export {
  addKeyVersion,
  checkKeyringFileMode,
  createKeyringFile,
  type LoadedKeyringFile,
  loadKeyringFile,
  removeKeyVersion,
  setCurrentKeyVersion,
} from './keyring-file';
export {
  DEFAULT_KEYRING_POLL_MS,
  type KeyringChange,
  type KeyringEnv,
  type KeyringHandle,
  type KeyringHooks,
  keyringFromEnv,
  watchKeyringFile,
} from './keyring-source';
