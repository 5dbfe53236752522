import path from 'node:path';
import { AccountStore, generatePassword } from '@svc/auth/accounts';
import type { PrismaClient } from '@svc/db';
import { z } from 'zod';
import { readSecretJson, writeSecretJson } from './secret-json';

// The development dashboard account of `pnpm start`: dev@localhost, owner of client "dev" (the dev
// key's client), with a generated password. Saved beside the dev key (mode 0600) so a second start
// reuses it; the password is printed only when it is made (or replaced).

export const DEV_ACCOUNT_EMAIL = 'dev@localhost';
export const DEV_ACCOUNT_ROLE = 'owner';

const DevAccountFile = z.object({
  email: z.string(),
  password: z.string(),
  account_id: z.string(),
  client_id: z.string(),
});
export type DevAccount = z.infer<typeof DevAccountFile>;

/** `dev-account.json` in the launcher's data directory (DATA_DIR). */
export function devAccountPath(dataDir: string): string {
  return path.join(dataDir, 'dev-account.json');
}

export function readDevAccount(file: string): DevAccount | null {
  return readSecretJson(file, DevAccountFile);
}

export type DevAccountResult =
  /** The saved password signs in to this database. */
  | { status: 'existing'; account: DevAccount }
  /**
   * A password was made: a new account, or the saved one does not sign in any more (database reset,
   * file lost, password changed with the admin CLI) and the account's password was set anew.
   */
  | { status: 'created' | 'reset'; account: DevAccount };

/**
 * Makes sure `<DATA_DIR>/dev-account.json` holds a password that signs in as dev@localhost for the
 * dev client `clientId`. A disabled dev account is left alone (the operator disabled it): its saved
 * file is reported as is and sign-in refuses it.
 */
export async function ensureDevAccount(
  prisma: PrismaClient,
  file: string,
  clientId: string,
): Promise<DevAccountResult> {
  const store = new AccountStore(prisma);
  const saved = readDevAccount(file);
  const existing = await store.findByEmail(DEV_ACCOUNT_EMAIL);
  if (saved !== null && existing !== null && existing.id === saved.account_id) {
    if (
      existing.disabledAt !== null ||
      (await store.verifyPassword(DEV_ACCOUNT_EMAIL, saved.password)) !== null
    ) {
      return { status: 'existing', account: saved };
    }
  }
  const password = generatePassword();
  let account: DevAccount;
  let status: 'created' | 'reset';
  if (existing === null) {
    const created = await store.create({
      clientId,
      email: DEV_ACCOUNT_EMAIL,
      role: DEV_ACCOUNT_ROLE,
      password,
    });
    account = { email: created.email, password, account_id: created.id, client_id: created.clientId };
    status = 'created';
  } else {
    await store.setPassword(DEV_ACCOUNT_EMAIL, password);
    account = { email: existing.email, password, account_id: existing.id, client_id: existing.clientId };
    status = 'reset';
  }
  writeSecretJson(file, account);
  return { status, account };
}
