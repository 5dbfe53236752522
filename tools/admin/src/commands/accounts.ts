import { AccountNotFoundError, type AccountStore, generatePassword } from '@svc/auth/accounts';
import type { PrismaClient } from '@svc/db';
import type { AccountArgs, CreateAccountArgs, ListAccountsArgs, ResetPasswordArgs } from '../args';
import { clientIdByName } from './client-by-name';

// Dashboard accounts (issue 18). A password comes from stdin (--password-stdin) or is generated
// here and printed once in the JSON answer: it is never an argument (argv shows in `ps` and in shell
// history) and never stored except as its argon2id hash.

/** Reads the password given on stdin: its first line, without the line ending. */
export type ReadPassword = () => Promise<string>;

export interface AccountRow {
  account_id: string;
  client_id: string;
  client_name: string;
  email: string;
  role: string;
  created_at: string;
  disabled_at: string | null;
  password_changed_at: string;
}

/** The password to set: read, or generated (then it goes into the answer, once). */
async function passwordFor(
  args: { passwordFromStdin: boolean },
  readPassword: ReadPassword,
): Promise<{ password: string; generated: boolean }> {
  if (args.passwordFromStdin) return { password: await readPassword(), generated: false };
  return { password: generatePassword(), generated: true };
}

export async function createAccount(
  prisma: PrismaClient,
  store: AccountStore,
  args: CreateAccountArgs,
  readPassword: ReadPassword,
): Promise<Record<string, string>> {
  const clientId = await clientIdByName(prisma, args.clientName);
  const { password, generated } = await passwordFor(args, readPassword);
  const account = await store.create({ clientId, email: args.email, role: args.role, password });
  return {
    account_id: account.id,
    client_id: account.clientId,
    email: account.email,
    role: account.role,
    ...(generated ? { password } : {}),
  };
}

/**
 * Accounts by client name, then email. The names are the gateway's (auth.clients) and the accounts
 * the dashboard's (dashboard.accounts), with no join between the two schemas: the CLI reads both.
 * An unknown client name lists nothing.
 */
export async function listAccounts(
  prisma: PrismaClient,
  store: AccountStore,
  args: ListAccountsArgs,
): Promise<AccountRow[]> {
  const clients = await prisma.client.findMany({
    where: args.clientName === null ? {} : { name: args.clientName },
    select: { id: true, name: true },
  });
  const names = new Map(clients.map((client) => [client.id, client.name]));
  const accounts = args.clientName === null ? await store.list() : await listedFor(store, clients);
  const rows = accounts.map((account) => ({
    account_id: account.id,
    client_id: account.clientId,
    client_name: names.get(account.clientId) ?? '',
    email: account.email,
    role: account.role,
    created_at: account.createdAt.toISOString(),
    disabled_at: account.disabledAt?.toISOString() ?? null,
    password_changed_at: account.passwordChangedAt.toISOString(),
  }));
  return rows.sort(
    (a, b) =>
      a.client_name.localeCompare(b.client_name) || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0),
  );
}

async function listedFor(store: AccountStore, clients: readonly { id: string }[]) {
  return (await Promise.all(clients.map((client) => store.list({ clientId: client.id })))).flat();
}

export async function resetPassword(
  store: AccountStore,
  args: ResetPasswordArgs,
  readPassword: ReadPassword,
): Promise<Record<string, string | number>> {
  // Unknown email: refused before any password is read or generated.
  if ((await store.findByEmail(args.email)) === null) {
    throw new AccountNotFoundError(args.email);
  }
  const { password, generated } = await passwordFor(args, readPassword);
  const { revokedSessions } = await store.setPassword(args.email, password);
  return { email: args.email, revoked_sessions: revokedSessions, ...(generated ? { password } : {}) };
}

/** The account commands, dispatched (cli.ts). */
export async function executeAccountCommand(
  prisma: PrismaClient,
  store: AccountStore,
  args: AccountArgs,
  readPassword: ReadPassword,
): Promise<unknown> {
  switch (args.command) {
    case 'create-account':
      return createAccount(prisma, store, args, readPassword);
    case 'list-accounts':
      return listAccounts(prisma, store, args);
    case 'reset-password':
      return resetPassword(store, args, readPassword);
    case 'disable-account': {
      const { disabledAt, revokedSessions } = await store.disable(args.email);
      return { email: args.email, disabled_at: disabledAt.toISOString(), revoked_sessions: revokedSessions };
    }
    case 'revoke-sessions': {
      const { revokedSessions } = await store.revokeSessions(args.email);
      return { email: args.email, revoked_sessions: revokedSessions };
    }
  }
}

/**
 * The first line of everything on stdin (a pipe or a file: `printf %s "$PW" | pnpm admin …`), without
 * its line ending. An empty answer is refused by the password policy like a short one.
 */
export async function readPasswordFromStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.split(/\r?\n/, 1)[0] ?? '';
}
