import { createPrismaClient, type PrismaClient } from '@svc/db';
import { type SharedTestStack, sharedTestStack } from '@svc/testkit';

/**
 * The jest run's shared platform (@svc/testkit sharedTestStack: every service of the one list, fake
 * CT providers, crt cache off, node-only worker) with a Prisma client of this suite's own on its
 * database, for the gateway suites that only call the API and isolate themselves by client. The
 * same shape as the private FilesStack / QuoteFirstStack of the suites that control processes.
 */
export interface SharedPlatform {
  stack: SharedTestStack;
  prisma: PrismaClient;
  /** Closes this suite's database clients; the platform itself stays up for the other suites. */
  close(): Promise<void>;
}

/** A stack with a Prisma client of this suite's own on its database; `close` ends both, client first. */
export function withSuitePrisma<Stack extends { readonly databaseUrl: string; close(): Promise<void> }>(
  stack: Stack,
  poolMax?: number,
): { stack: Stack; prisma: PrismaClient; close(): Promise<void> } {
  const prisma = createPrismaClient(stack.databaseUrl, poolMax === undefined ? {} : { max: poolMax });
  return {
    stack,
    prisma,
    close: async () => {
      await prisma.$disconnect();
      await stack.close();
    },
  };
}

export async function sharedPlatform(): Promise<SharedPlatform> {
  // A small pool: every suite of the run has its clients on the one shared database.
  return withSuitePrisma(await sharedTestStack(), 4);
}
