// @svc/db: Prisma schema, generated client, offline migrations (docs/architecture.md, docs/db.md).
export type { ConnectionErrorLogger, PrismaClientOptions } from './client';
export { createPrismaClient } from './client';
export { databaseName } from './connection';
export { dropDatabase, ensureDatabaseExists } from './database';
export { isUniqueViolation } from './errors';
export type {
  ApiKey,
  Artifact,
  Capability,
  Client,
  LedgerEntry,
  Quote,
  Run,
  UploadSession,
  WalletAccount,
} from './generated/prisma/client';
export { LedgerEntryKind, Prisma, PrismaClient, RunStatus, UploadStatus } from './generated/prisma/client';
export type { CreatedMigration, CreateMigrationOptions } from './migrate/create-migration';
export { createMigration } from './migrate/create-migration';
export type { MigrateOptions, MigrateResult } from './migrate/migrate-database';
export { migrateDatabase } from './migrate/migrate-database';
export { MIGRATIONS_DIR, SCHEMA_PATH } from './migrate/migrations-dir';
export type { MigratedTemplateOptions } from './migrate/template-database';
export {
  createMigratedDatabase,
  ensureMigratedTemplate,
  migrationsHash,
  TEMPLATE_PREFIX,
} from './migrate/template-database';
export type { StatementListener } from './pool';
export {
  type LedgerDb,
  type LedgerTotals,
  ledgerTotals,
  lockWalletAccount,
  recomputeLedgerTotals,
  type SpendPeriod,
  spendPeriod,
} from './wallet-ledger';
