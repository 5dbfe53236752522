import type { PrismaClient } from '@svc/db';

/** Stored data keys per key version: every field and every candidate that still has a ciphertext. */
export async function dataKeysByVersion(prisma: PrismaClient): Promise<Record<string, number>> {
  const [fields, candidates] = await Promise.all([
    prisma.vaultField.groupBy({ by: ['keyVersion'], _count: { _all: true } }),
    prisma.vaultCandidate.groupBy({
      by: ['keyVersion'],
      where: { ciphertext: { not: null }, keyVersion: { not: null } },
      _count: { _all: true },
    }),
  ]);
  const counts: Record<string, number> = {};
  for (const group of [...fields, ...candidates]) {
    if (group.keyVersion === null) continue;
    const key = String(group.keyVersion);
    counts[key] = (counts[key] ?? 0) + group._count._all;
  }
  return counts;
}

/** Data keys not yet wrapped by `target` (what a re-wrap to it has left to do). */
export async function dataKeysNotAt(prisma: PrismaClient, target: number): Promise<number> {
  const [fields, candidates] = await Promise.all([
    prisma.vaultField.count({ where: { keyVersion: { not: target } } }),
    prisma.vaultCandidate.count({
      where: { ciphertext: { not: null }, keyVersion: { not: null, notIn: [target] } },
    }),
  ]);
  return fields + candidates;
}
