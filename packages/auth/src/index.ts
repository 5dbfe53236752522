export type { AccountRole, AccountStoreOptions, CreateAccountInput, DashboardAccount } from './account-store';
export {
  ACCOUNT_ROLES,
  AccountExistsError,
  AccountNotFoundError,
  AccountStore,
  isAccountRole,
  normalizeEmail,
} from './account-store';
export type { GeneratedApiKey, ParsedApiKey } from './api-key-format';
export {
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  extractKeyId,
  formatApiKey,
  generateApiKey,
  isKeyId,
  parseApiKey,
} from './api-key-format';
export type {
  ApiKeyListing,
  ApiKeyStoreOptions,
  CreateApiKeyHook,
  CreateApiKeyInput,
  CreateClientApiKeyInput,
  CreatedApiKey,
  LookedUpApiKey,
  VerifiedApiKey,
} from './api-key-store';
export { ApiKeyStore } from './api-key-store';
export { csrfTokenFor, csrfTokenMatches } from './csrf';
export { KeyUseRecorder, type KeyUseRecorderOptions } from './key-use-recorder';
export {
  checkPasswordPolicy,
  generatePassword,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_HASH_OPTIONS,
  PasswordPolicyError,
  verifyPassword,
  warmPasswordHashing,
} from './password';
export type { ProvisionClientInput } from './provision-client';
export { DEFAULT_OPENING_BALANCE_NOTE, provisionClient } from './provision-client';
export { allScopes, hasScopes, isScope, parseScopes, UnknownScopeError } from './scopes';
export { digestsEqual, hashSecret } from './secret-hash';
export type { SessionAccount, SessionStoreOptions, StartedSession, StartSessionInput } from './session-store';
export {
  DEFAULT_SESSION_TOUCH_INTERVAL_MS,
  SESSION_TOKEN_BYTES,
  SessionStore,
  sessionTokenHash,
} from './session-store';
export {
  generateUploadToken,
  isUploadToken,
  UPLOAD_TOKEN_PREFIX,
  uploadTokenHash,
  uploadTokenMatches,
} from './upload-token';
