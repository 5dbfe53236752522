-- Issue 15: PostgreSQL drives the run path (docs/decisions.md RP1-RP13).
-- settled_at stays NULL for every existing run on purpose: the orchestrator asks the wallet to settle every
-- paid final run until it confirms, and the wallet applies a settlement once, so runs whose old settle
-- job was lost get settled now. Live runs keep job_id NULL: the dispatcher hands each over again as
-- run-<id>-1, and an old run-<id> job still in Redis is refused at its claim (superseded).
-- DropIndex
DROP INDEX "orchestrator"."runs_settle_queued_at_status_idx";

-- AlterTable
ALTER TABLE "orchestrator"."runs" DROP COLUMN "settle_queued_at",
ADD COLUMN     "dispatches" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "hold_pending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "job_id" TEXT,
ADD COLUMN     "settled_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "runs_settled_at_price_micros_status_idx" ON "orchestrator"."runs"("settled_at", "price_micros", "status");

-- CreateIndex
CREATE INDEX "runs_hold_pending_created_at_idx" ON "orchestrator"."runs"("hold_pending", "created_at");
