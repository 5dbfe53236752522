-- Issue 15: PostgreSQL drives the run path. settled_at is left NULL for every existing run on purpose:
-- the orchestrator re-drives the settlement of paid final runs until the wallet confirms it, and the
-- wallet applies a settlement once, so runs whose old settle job was lost are settled now.
-- AlterTable
ALTER TABLE "orchestrator"."runs" ADD COLUMN     "dispatches" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "hold_pending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "job_id" TEXT,
ADD COLUMN     "settled_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "runs_settled_at_status_idx" ON "orchestrator"."runs"("settled_at", "status");
