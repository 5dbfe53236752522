-- Issue 23 (docs/decisions.md C16): the run id a client sees is unique per client. Every existing run keeps
-- the id it was answered with: public_id = id.
-- AlterTable
ALTER TABLE "orchestrator"."runs" ADD COLUMN     "public_id" UUID;
UPDATE "orchestrator"."runs" SET "public_id" = "id";
ALTER TABLE "orchestrator"."runs" ALTER COLUMN "public_id" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "runs_client_id_public_id_key" ON "orchestrator"."runs"("client_id", "public_id");
