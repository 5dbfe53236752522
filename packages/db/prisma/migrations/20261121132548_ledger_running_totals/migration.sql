-- AlterTable
ALTER TABLE "wallet"."accounts" ADD COLUMN     "balance_micros" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "wallet"."open_holds" (
    "run_id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "open_holds_pkey" PRIMARY KEY ("run_id")
);

-- CreateTable
CREATE TABLE "wallet"."account_periods" (
    "client_id" UUID NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "spent_micros" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "account_periods_pkey" PRIMARY KEY ("client_id","period_start")
);

-- CreateIndex
CREATE INDEX "open_holds_client_id_idx" ON "wallet"."open_holds"("client_id");

-- CreateIndex
CREATE INDEX "open_holds_created_at_run_id_idx" ON "wallet"."open_holds"("created_at", "run_id");

-- ---------------------------------------------------------------------------------------------
-- Hand-written below (docs/db.md; the schema engine does not track functions or triggers, so
-- `migrate:new` leaves them alone). docs/decisions.md W7.
--
-- The ledger stays the record and stays append-only; these triggers keep what is derived from it
-- in the same transaction as each line, so a quote or a hold reads a client's balance, open holds
-- and month's spend without summing the client's whole history (which grows with use, and was read
-- under the client's lock on every hold). Every rule is order-independent: a hold and its capture
-- written in one statement or in either order leave the same totals.

-- Append-only, enforced: a line is never changed or removed.
CREATE FUNCTION wallet.ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'wallet.ledger_entries is append-only: % is not allowed', TG_OP;
END;
$$;

CREATE TRIGGER ledger_entries_append_only
  BEFORE UPDATE OR DELETE ON wallet.ledger_entries
  FOR EACH ROW EXECUTE FUNCTION wallet.ledger_entries_append_only();

-- Signs as docs/decisions.md W3:
--   credit, adjustment, capture: the account's balance += amount (captures are negative);
--   capture: the month's (UTC) spend += -amount;
--   hold: its run becomes an open hold, unless the run already has a capture or release line;
--   capture, release: the run is no longer an open hold.
CREATE FUNCTION wallet.ledger_entries_running_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind IN ('credit', 'adjustment', 'capture') THEN
    INSERT INTO wallet.accounts AS a (client_id, balance_micros, updated_at)
      VALUES (NEW.client_id, NEW.amount_micros, now())
      ON CONFLICT (client_id)
      DO UPDATE SET balance_micros = a.balance_micros + EXCLUDED.balance_micros, updated_at = now();
  END IF;

  IF NEW.kind = 'capture' THEN
    INSERT INTO wallet.account_periods AS p (client_id, period_start, spent_micros)
      VALUES (NEW.client_id,
              date_trunc('month', NEW.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
              -NEW.amount_micros)
      ON CONFLICT (client_id, period_start)
      DO UPDATE SET spent_micros = p.spent_micros + EXCLUDED.spent_micros;
  END IF;

  IF NEW.kind = 'hold' AND NEW.run_id IS NOT NULL THEN
    INSERT INTO wallet.open_holds (run_id, client_id, amount_micros, created_at)
      SELECT NEW.run_id, NEW.client_id, abs(NEW.amount_micros), NEW.created_at
      WHERE NOT EXISTS (
        SELECT 1 FROM wallet.ledger_entries s
        WHERE s.run_id = NEW.run_id AND s.kind IN ('capture', 'release'))
      ON CONFLICT (run_id) DO NOTHING;
  END IF;

  IF NEW.kind IN ('capture', 'release') AND NEW.run_id IS NOT NULL THEN
    DELETE FROM wallet.open_holds WHERE run_id = NEW.run_id;
  END IF;

  RETURN NULL;
END;
$$;

CREATE TRIGGER ledger_entries_running_totals
  AFTER INSERT ON wallet.ledger_entries
  FOR EACH ROW EXECUTE FUNCTION wallet.ledger_entries_running_totals();

-- Backfill from the lines already written (a deployment upgraded with data).
INSERT INTO wallet.accounts (client_id, updated_at)
  SELECT DISTINCT client_id, now() FROM wallet.ledger_entries
  ON CONFLICT (client_id) DO NOTHING;

UPDATE wallet.accounts a SET balance_micros = COALESCE((
  SELECT SUM(l.amount_micros) FROM wallet.ledger_entries l
  WHERE l.client_id = a.client_id AND l.kind IN ('credit', 'adjustment', 'capture')), 0);

INSERT INTO wallet.open_holds (run_id, client_id, amount_micros, created_at)
  SELECT h.run_id, h.client_id, abs(h.amount_micros), h.created_at FROM wallet.ledger_entries h
  WHERE h.kind = 'hold' AND h.run_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM wallet.ledger_entries s WHERE s.run_id = h.run_id AND s.kind IN ('capture', 'release'));

INSERT INTO wallet.account_periods (client_id, period_start, spent_micros)
  SELECT client_id, date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', SUM(-amount_micros)
  FROM wallet.ledger_entries WHERE kind = 'capture'
  GROUP BY 1, 2;
