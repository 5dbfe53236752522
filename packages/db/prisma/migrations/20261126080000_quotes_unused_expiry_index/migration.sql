-- The wallet's quote clean-up (decisions W8) looks for expired quotes that no run used. A partial
-- index over exactly those keeps each of its batches an index range scan however many quotes are
-- stored (raw SQL: Prisma's schema cannot express a partial index on a JSON path).
CREATE INDEX "quotes_unused_expires_at_idx" ON "wallet"."quotes" ("expires_at")
  WHERE "detail"->>'used_by_run' = 'false';
