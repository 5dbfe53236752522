-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "uploads";

-- CreateEnum
CREATE TYPE "uploads"."upload_status" AS ENUM ('pending', 'uploading', 'complete', 'expired');

-- AlterTable
ALTER TABLE "orchestrator"."runs" ADD COLUMN     "files" JSONB;

-- CreateTable
CREATE TABLE "uploads"."upload_sessions" (
    "id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL,
    "token_hash" BYTEA NOT NULL,
    "status" "uploads"."upload_status" NOT NULL DEFAULT 'pending',
    "claimed_at" TIMESTAMPTZ(3),
    "sha256" TEXT,
    "facts" JSONB,
    "storage_key" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "used_by_run_id" UUID,
    "used_at" TIMESTAMPTZ(3),
    "delete_after" TIMESTAMPTZ(3),

    CONSTRAINT "upload_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "uploads"."artifacts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "run_id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL,
    "sha256" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "artifacts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "upload_sessions_client_id_created_at_idx" ON "uploads"."upload_sessions"("client_id", "created_at");

-- CreateIndex
CREATE INDEX "upload_sessions_status_expires_at_idx" ON "uploads"."upload_sessions"("status", "expires_at");

-- CreateIndex
CREATE INDEX "upload_sessions_delete_after_idx" ON "uploads"."upload_sessions"("delete_after");

-- CreateIndex
CREATE INDEX "artifacts_client_id_created_at_idx" ON "uploads"."artifacts"("client_id", "created_at");

-- CreateIndex
CREATE INDEX "artifacts_expires_at_idx" ON "uploads"."artifacts"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "artifacts_run_id_name_key" ON "uploads"."artifacts"("run_id", "name");
