-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "orchestrator";

-- CreateEnum
CREATE TYPE "orchestrator"."run_status" AS ENUM ('queued', 'running', 'retrying', 'completed', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "wallet"."quotes" (
    "id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "price_micros" BIGINT NOT NULL,
    "input_hash" TEXT NOT NULL,
    "cleared" BOOLEAN NOT NULL,
    "clearance" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quotes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orchestrator"."runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "client_id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "status" "orchestrator"."run_status" NOT NULL DEFAULT 'queued',
    "client_type" TEXT NOT NULL,
    "quote_id" UUID,
    "quote" JSONB,
    "idempotency_key" TEXT,
    "request_hash" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "result" JSONB,
    "error" JSONB,
    "metrics" JSONB,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "dispatched_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "quotes_client_id_created_at_idx" ON "wallet"."quotes"("client_id", "created_at");

-- CreateIndex
CREATE INDEX "runs_client_id_created_at_idx" ON "orchestrator"."runs"("client_id", "created_at");

-- CreateIndex
CREATE INDEX "runs_status_updated_at_idx" ON "orchestrator"."runs"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "runs_client_id_idempotency_key_key" ON "orchestrator"."runs"("client_id", "idempotency_key");
