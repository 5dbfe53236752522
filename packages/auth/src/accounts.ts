// `@svc/auth/accounts`: the dashboard's people side (issue 18; its own schema since issue 24), apart
// from the API-key side of `@svc/auth` because it brings argon2 (a native module and 19 MiB per
// hash) into whatever imports it: the dashboard process, the admin CLI and the launcher do, the
// gateway does not.
export type { AccountStoreOptions, CreateAccountInput, DashboardAccount } from './account-store';
export { AccountExistsError, AccountNotFoundError, AccountStore } from './account-store';
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
export type { SessionAccount, SessionStoreOptions, StartedSession, StartSessionInput } from './session-store';
export {
  DEFAULT_SESSION_TOUCH_INTERVAL_MS,
  SESSION_TOKEN_BYTES,
  SessionStore,
  sessionTokenHash,
} from './session-store';
