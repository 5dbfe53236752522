/**
 * Readiness checks: each resolves when its dependency answers and throws (with a short reason)
 * when it does not. `/readyz` runs them in parallel, each bounded by a timeout.
 */
export type ReadinessCheckFn = () => Promise<unknown>;

/** Anything with an ioredis-style `ping()` (the bus producer connection, for instance). */
export interface Pingable {
  ping(): Promise<string>;
}

/** Anything with Prisma's `$queryRawUnsafe` (a PrismaClient). */
export interface RawQueryable {
  $queryRawUnsafe(query: string): Promise<unknown>;
}

export function redisCheck(redis: Pingable): ReadinessCheckFn {
  return async () => {
    const reply = await redis.ping();
    if (reply !== 'PONG') throw new Error(`unexpected PING reply ${reply}`);
  };
}

export function prismaCheck(prisma: RawQueryable): ReadinessCheckFn {
  return async () => {
    await prisma.$queryRawUnsafe('SELECT 1');
  };
}
