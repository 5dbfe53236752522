-- The dashboard is its own process (issue 24) and owns the people side: its accounts and sessions
-- move, rows included, from the gateway's `auth` schema to a schema of its own. SET SCHEMA keeps
-- every row, index and the sessions' foreign key; the tables lose their `dashboard_` prefix (the
-- schema says it now) and the foreign key into auth.clients goes (no cross-schema foreign keys:
-- a service asks the owner over the bus instead of joining its tables).
CREATE SCHEMA IF NOT EXISTS "dashboard";

-- DropForeignKey
ALTER TABLE "auth"."dashboard_accounts" DROP CONSTRAINT "dashboard_accounts_client_id_fkey";

-- Move
ALTER TABLE "auth"."dashboard_accounts" SET SCHEMA "dashboard";
ALTER TABLE "auth"."dashboard_sessions" SET SCHEMA "dashboard";

-- Rename tables, then their constraints and indexes to the names Prisma gives them
ALTER TABLE "dashboard"."dashboard_accounts" RENAME TO "accounts";
ALTER TABLE "dashboard"."dashboard_sessions" RENAME TO "sessions";
ALTER TABLE "dashboard"."accounts" RENAME CONSTRAINT "dashboard_accounts_pkey" TO "accounts_pkey";
ALTER TABLE "dashboard"."sessions" RENAME CONSTRAINT "dashboard_sessions_pkey" TO "sessions_pkey";
ALTER TABLE "dashboard"."sessions" RENAME CONSTRAINT "dashboard_sessions_account_id_fkey" TO "sessions_account_id_fkey";
ALTER INDEX "dashboard"."dashboard_accounts_email_key" RENAME TO "accounts_email_key";
ALTER INDEX "dashboard"."dashboard_accounts_client_id_idx" RENAME TO "accounts_client_id_idx";
ALTER INDEX "dashboard"."dashboard_sessions_token_hash_key" RENAME TO "sessions_token_hash_key";
ALTER INDEX "dashboard"."dashboard_sessions_account_id_idx" RENAME TO "sessions_account_id_idx";
