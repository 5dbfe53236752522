import { randomBytes } from 'node:crypto';
import type { AccountRole } from '@svc/auth';
import { AccountStore, generatePassword } from '@svc/auth/accounts';
import { createPrismaClient, type PrismaClient } from '@svc/db';

/** Where the account goes: a running stack (its database, by URL) or a database client of a test. */
export type AccountDatabase = { readonly databaseUrl: string } | { readonly prisma: PrismaClient };

export type CreateTestAccountOptions = (
  | { clientId: string; clientName?: never }
  /** An existing client's name, or a new client made with it. */
  | { clientName: string; clientId?: never }
) & {
  role: AccountRole;
  /** Default: `<role>-<random>@test.example` (unique per call). */
  email?: string;
  /** Default: a generated one (20 characters). At least 12 characters. */
  password?: string;
};

export interface TestAccount {
  /** As stored: trimmed and lowercased. */
  email: string;
  /** In clear, for the sign-in form; only its argon2id hash is in the database. */
  password: string;
  accountId: string;
  clientId: string;
}

/**
 * A dashboard account written the way the admin CLI writes one (@svc/auth AccountStore), straight
 * into the stack's database: `createTestAccount(stack, { clientId: key.clientId, role: 'owner' })`.
 */
export async function createTestAccount(
  target: AccountDatabase,
  options: CreateTestAccountOptions,
): Promise<TestAccount> {
  const own = 'prisma' in target ? undefined : createPrismaClient(target.databaseUrl, { max: 1 });
  const prisma = 'prisma' in target ? target.prisma : (own as PrismaClient);
  try {
    const clientId =
      options.clientId ??
      (
        await prisma.client.upsert({
          where: { name: options.clientName },
          create: { name: options.clientName },
          update: {},
          select: { id: true },
        })
      ).id;
    const email = options.email ?? `${options.role}-${randomBytes(5).toString('hex')}@test.example`;
    const password = options.password ?? generatePassword();
    const account = await new AccountStore(prisma).create({ clientId, email, role: options.role, password });
    return { email: account.email, password, accountId: account.id, clientId };
  } finally {
    await own?.$disconnect();
  }
}
