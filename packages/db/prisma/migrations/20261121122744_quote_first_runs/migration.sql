-- AlterTable
ALTER TABLE "orchestrator"."runs" ADD COLUMN     "cancel_requested_at" TIMESTAMPTZ(3),
ADD COLUMN     "execution_status" TEXT NOT NULL DEFAULT 'supported',
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "price_micros" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "runtime" TEXT NOT NULL DEFAULT 'node',
ADD COLUMN     "settle_queued_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "wallet"."ledger_entries" ADD COLUMN     "slug" TEXT;

-- AlterTable
ALTER TABLE "wallet"."quotes" ADD COLUMN     "detail" JSONB;

-- CreateIndex
CREATE INDEX "runs_settle_queued_at_status_idx" ON "orchestrator"."runs"("settle_queued_at", "status");

-- CreateIndex
CREATE INDEX "ledger_entries_client_id_kind_created_at_idx" ON "wallet"."ledger_entries"("client_id", "kind", "created_at");
