import { randomUUID } from 'node:crypto';
import {
  isTerminalRunState,
  type LedgerEntryKind,
  Quote,
  RunReceiptResponse,
  RunRecord,
  type RunState,
  VaultExtraction,
} from '@svc/contracts';

/**
 * Wire records for the views rendered as pure components (runs-vault-views.test.ts,
 * run-pages-reading.test.ts): a run, its quote, its receipt and a vault extraction in any state a
 * test names. Each is parsed by its contract schema, so a record here is one the services may
 * answer; the pages' suites get theirs from the real services (support.ts).
 */

const NOW = '2026-11-26T16:00:00.000Z';

const STATUS_MESSAGES: Record<RunState, string> = {
  queued: 'queued: waiting for a worker',
  running: 'running (attempt 1)',
  retrying: 'retrying: attempt 1 failed (boom); the next attempt starts after a backoff',
  completed: 'completed',
  failed: 'failed: internal error',
  cancelled: 'cancelled',
};

/** A run record with the fields the views do not interpret filled in. */
export function runRecord(
  fields: Pick<RunRecord, 'run_id' | 'status' | 'slug'> & Partial<RunRecord>,
): RunRecord {
  const now = new Date().toISOString();
  const started = fields.status !== 'queued';
  return RunRecord.parse({
    client_type: 'api',
    quote_id: fields.run_id,
    created_at: now,
    updated_at: now,
    started_at: started ? now : null,
    finished_at: isTerminalRunState(fields.status) ? now : null,
    attempts: started ? 1 : 0,
    price_usd: '0',
    runtime: 'node',
    waiting_for_runtime: null,
    cancel_requested_at: null,
    status_message: STATUS_MESSAGES[fields.status],
    ...fields,
  });
}

/** A quote as the wallet issues it; free unless `priceUsd` says otherwise. */
export function issuedQuote(quoteId: string, slug: string, priceUsd = '0'): Quote {
  const now = new Date().toISOString();
  const free = priceUsd === '0';
  return Quote.parse({
    quote_id: quoteId,
    slug,
    price_usd: priceUsd,
    currency: 'USD',
    wallet_clearance: free
      ? { cleared: true, reason: 'free capability: no funds needed' }
      : {
          cleared: true,
          reason: `the price ${priceUsd} USD fits the 5.00 USD available`,
          balance_usd: '5.00',
          held_usd: '0.00',
          spend_cap_usd: null,
          spent_usd: '0.00',
          remaining_usd: '5.00',
          remaining_after_usd: '4.998',
        },
    created_at: now,
    expires_at: new Date(Date.parse(now) + 15 * 60_000).toISOString(),
  });
}

/**
 * The receipt of a run as the wallet's ledger has it: a paid run's hold, then its capture
 * (completed) or release (failed, cancelled); a free run has no lines.
 */
export function ledgerReceipt(record: RunRecord, quote: Quote): RunReceiptResponse {
  const price = record.price_usd;
  const paid = price !== '0';
  const line = (kind: LedgerEntryKind, amount: string) => ({
    entry_id: randomUUID(),
    kind,
    amount_usd: amount,
    run_id: record.run_id,
    slug: record.slug,
    note: `${kind} for run ${record.run_id}`,
    created_at: record.updated_at,
  });
  const captured = paid && record.status === 'completed';
  const released = paid && (record.status === 'failed' || record.status === 'cancelled');
  const lines = paid ? [line('hold', `-${price}`)] : [];
  if (captured) lines.push(line('capture', `-${price}`));
  if (released) lines.push(line('release', price));
  return RunReceiptResponse.parse({
    ok: true,
    run: record,
    quote,
    currency: 'USD',
    ledger: {
      lines,
      held_usd: paid && !captured && !released ? price : '0.00',
      charged_usd: captured ? price : '0.00',
      settled: !paid || captured || released,
    },
  });
}

/** A pending extraction of a one-page text document, with no candidates. */
export function extraction(id: string = randomUUID()): VaultExtraction {
  return VaultExtraction.parse({
    extraction_id: id,
    status: 'pending',
    version: 1,
    document: { kind: 'text', content_type: 'text/plain', pages: 1, characters: 10 },
    candidates: [],
    created_at: NOW,
    expires_at: NOW,
  });
}
