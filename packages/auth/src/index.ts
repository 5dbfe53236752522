// The dashboard's accounts, sessions and passwords (argon2) are `@svc/auth/accounts`, so a process
// that only verifies API keys (the gateway) never loads them.
export { ACCOUNT_ROLES, type AccountRole, isAccountRole, normalizeEmail } from './account-roles';
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
export type { ProvisionClientInput } from './provision-client';
export { DEFAULT_OPENING_BALANCE_NOTE, provisionClient } from './provision-client';
export { allScopes, hasScopes, isScope, parseScopes, UnknownScopeError } from './scopes';
export { digestsEqual, hashSecret } from './secret-hash';
export {
  generateUploadToken,
  isUploadToken,
  UPLOAD_TOKEN_PREFIX,
  uploadTokenHash,
  uploadTokenMatches,
} from './upload-token';
