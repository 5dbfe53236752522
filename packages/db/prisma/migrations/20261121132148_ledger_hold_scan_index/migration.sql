-- CreateIndex
CREATE INDEX "ledger_entries_kind_created_at_run_id_idx" ON "wallet"."ledger_entries"("kind", "created_at", "run_id");
