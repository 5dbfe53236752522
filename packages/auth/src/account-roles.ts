/**
 * Dashboard roles and the email form of an account (issue 18): plain values, shared by the admin
 * CLI's argument checks and the dashboard's pages (roles.ts says what each role may see). The
 * stores themselves are `@svc/auth/accounts` (they bring argon2).
 */
export const ACCOUNT_ROLES = ['owner', 'developer', 'viewer'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

export function isAccountRole(value: string): value is AccountRole {
  return (ACCOUNT_ROLES as readonly string[]).includes(value);
}

/** Emails are compared and stored trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
