import { ACCOUNT_ROLES, type AccountRole } from '@svc/auth';

/**
 * Who may see what in the dashboard (issue 18; decisions: three roles, six permissions). A role is
 * stored on the account (auth.dashboard_accounts.role); a page names the permission it needs and the
 * page kit answers 403 when the signed-in role lacks it. The roles are @svc/auth's list (the admin
 * CLI writes them); the permissions are the dashboard's.
 */
export const DASHBOARD_ROLES = ACCOUNT_ROLES;
export type DashboardRole = AccountRole;

export const PERMISSIONS = ['overview', 'keys', 'runs', 'runs:cancel', 'usage', 'vault'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What a route needs: a permission, or only a session (signing out is every signed-in person's). */
export const SIGNED_IN = 'signed-in';
export type Access = Permission | typeof SIGNED_IN;

const GRANTS: Readonly<Record<DashboardRole, readonly Permission[]>> = {
  // The client's administrator: everything, the vault's private data included.
  owner: PERMISSIONS,
  // Builds against the API: keys and runs, but never reads the vault's personal data.
  developer: ['overview', 'keys', 'runs', 'runs:cancel', 'usage'],
  // Follows spending and runs; changes nothing.
  viewer: ['overview', 'runs', 'usage'],
};

/** What each role is for, shown beside the role in the header. */
export const ROLE_LABELS: Readonly<Record<DashboardRole, string>> = {
  owner: 'Owner',
  developer: 'Developer',
  viewer: 'Viewer',
};

export function isDashboardRole(text: string): text is DashboardRole {
  return (DASHBOARD_ROLES as readonly string[]).includes(text);
}

/** An unknown role (a newer row read by an older dashboard) gets nothing but signing out. */
export function roleCan(role: string, access: Access): boolean {
  if (access === SIGNED_IN) return true;
  return isDashboardRole(role) && GRANTS[role].includes(access);
}
