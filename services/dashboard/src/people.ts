import type { AccountStore, SessionStore } from '@svc/auth/accounts';
import { SingleFlightCache } from '@svc/service-kit';
import type { DashboardAccounts, DashboardSessions, PlatformPorts, SignedInAccount } from './ports';

/**
 * The dashboard's people (its `dashboard` schema: accounts and sessions, @svc/auth's stores) as the
 * pages see them: with the client's name, which is the gateway's (auth.clients, asked over
 * `keys.describeClient`; no join across the two schemas), kept in memory for a while since a name
 * is set when a client is made and shown on every page.
 */

/** ms a client's name is kept: a page view costs no RPC of its own. */
export const CLIENT_NAME_TTL_MS = 5 * 60_000;
const MAX_CLIENT_NAMES = 10_000;

export interface PeopleOptions {
  readonly accounts: Pick<AccountStore, 'verifyPassword'>;
  readonly sessions: Pick<SessionStore, 'start' | 'lookup' | 'end' | 'endAll'>;
  readonly keys: Pick<PlatformPorts['keys'], 'describeClient'>;
  readonly clientNameTtlMs?: number;
}

export function dashboardPeople(options: PeopleOptions): {
  accounts: DashboardAccounts;
  sessions: DashboardSessions;
} {
  const names = new SingleFlightCache<string>({
    ttlMs: options.clientNameTtlMs ?? CLIENT_NAME_TTL_MS,
    maxEntries: MAX_CLIENT_NAMES,
  });
  const named = async <A extends { clientId: string }>(
    account: A | null,
  ): Promise<(A & { clientName: string }) | null> => {
    if (account === null) return null;
    const clientName = await names.get(account.clientId, async () => {
      const client = await options.keys.describeClient({ client_id: account.clientId });
      return client.name;
    });
    return { ...account, clientName };
  };
  const signedIn = (account: (SignedInAccount & object) | null): SignedInAccount | null =>
    account === null
      ? null
      : {
          id: account.id,
          email: account.email,
          role: account.role,
          clientId: account.clientId,
          clientName: account.clientName,
        };
  return {
    accounts: {
      verifyPassword: async (email, password) =>
        signedIn(await named(await options.accounts.verifyPassword(email, password))),
    },
    sessions: {
      start: (input) => options.sessions.start(input),
      lookup: async (token) => signedIn(await named(await options.sessions.lookup(token))),
      end: (token) => options.sessions.end(token),
      endAll: (accountId) => options.sessions.endAll(accountId),
    },
  };
}
