// The Prisma client every service uses, on the `pg` driver through @prisma/adapter-pg (Prisma 7 is
// Rust-free: queries are planned by a WASM compiler inside the client, executed by `pg`).
import { PrismaPg } from '@prisma/adapter-pg';
import { poolConfig } from './connection';
import { PrismaClient } from './generated/prisma/client';

export interface PrismaClientOptions {
  /** Pool size (pg default: 10). Each replica holds up to this many PostgreSQL connections. */
  max?: number;
}

export function createPrismaClient(databaseUrl: string, options: PrismaClientOptions = {}): PrismaClient {
  const config = poolConfig(databaseUrl, options.max === undefined ? {} : { max: options.max });
  return new PrismaClient({ adapter: new PrismaPg(config) });
}
