// Prisma 7 reads this file (not schema.prisma) for paths and the connection URL.
// Here we only use the Prisma CLI for `prisma generate` (offline); migrations run on the WASM
// schema engine through src/migrate (see docs/db.md). A machine with Prisma's native schema
// engine can still run `DATABASE_URL=… pnpm exec prisma migrate deploy` in this folder: the
// URL is read from the environment only when set, so `prisma generate` needs none.
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL;

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(url ? { datasource: { url } } : {}),
});
