import { Prisma } from './generated/prisma/client';

/**
 * True for a unique-constraint violation (Prisma P2002): the row a concurrent request inserted
 * first. Callers resolve the race by reading the winner (idempotent creates).
 */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
