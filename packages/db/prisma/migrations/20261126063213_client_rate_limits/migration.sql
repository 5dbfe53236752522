-- AlterTable
ALTER TABLE "auth"."clients" ADD COLUMN     "rate_limits" JSONB NOT NULL DEFAULT '{}';
