import { randomUUID } from 'node:crypto';
import {
  type CrtInput,
  type CrtResult,
  type EffectiveRunStatus,
  isTerminalRunState,
  type LedgerEntryKind,
  type Quote,
  type RunReceiptResponse,
  type RunRecord,
  type RunState,
} from '@svc/contracts';

/**
 * Contract-valid records for the in-memory fakes (fake-orchestrator.ts): runs, quotes, crt results
 * and the small capability table the fake orchestrator answers for. The real shapes come from the
 * orchestrator and wallet, exercised by the integration suites (test/quote-first/).
 */

/** What the fake orchestrator knows of each capability (the registry's seed, reduced). */
export interface FakeCapability {
  readonly status: EffectiveRunStatus;
  readonly runtime: string;
  /** UsdAmount; "0" for a free capability. */
  readonly priceUsd: string;
}

export const FAKE_CAPABILITIES: Readonly<Record<string, FakeCapability>> = {
  crt: { status: 'supported', runtime: 'node', priceUsd: '0' },
  'pii-redact': { status: 'supported', runtime: 'node', priceUsd: '0.002' },
  'crt-batch-plan': { status: 'plan_only', runtime: 'node', priceUsd: '0' },
  'html-to-pdf': { status: 'requires_worker', runtime: 'browser', priceUsd: '0.01' },
  whois: { status: 'describe_only', runtime: 'node', priceUsd: '0.001' },
};

const STATUS_MESSAGES: Record<RunState, string> = {
  queued: 'queued: waiting for a worker',
  running: 'running (attempt 1)',
  retrying: 'retrying: attempt 1 failed (boom); the next attempt starts after a backoff',
  completed: 'completed',
  failed: 'failed: internal error',
  cancelled: 'cancelled',
};

/** The words a run of this status carries (a fixed text per status is enough for the gateway). */
export function statusMessage(status: RunState): string {
  return STATUS_MESSAGES[status];
}

/** A run record with the fields the gateway does not interpret filled in. */
export function runRecord(
  fields: Pick<RunRecord, 'run_id' | 'status' | 'slug'> & Partial<RunRecord>,
): RunRecord {
  const now = new Date().toISOString();
  const started = fields.status !== 'queued';
  return {
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
    status_message: statusMessage(fields.status),
    ...fields,
  };
}

/** A quote as the wallet issues it; free unless `priceUsd` says otherwise. */
export function fakeQuote(quoteId: string, slug: string, priceUsd = '0'): Quote {
  const now = new Date().toISOString();
  const free = priceUsd === '0';
  return {
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
  };
}

export function fakeCrtResult(input: CrtInput): CrtResult {
  const hostnames = [input.apex, `mail.${input.apex}`, `www.${input.apex}`].slice(0, input.limit);
  return {
    status: 'completed',
    summary: `Found 3 distinct hostnames for ${input.apex} in certificate-transparency logs (crt.sh); returning ${hostnames.length} (limit ${input.limit}).`,
    apex: input.apex,
    count: hostnames.length,
    limit: input.limit,
    include_first_seen: input.include_first_seen,
    observations: hostnames.map((hostname) =>
      input.include_first_seen ? { hostname, first_seen: '2024-03-05T12:34:56.789Z' } : { hostname },
    ),
    provider: 'crt.sh',
    live_hosts_verified: false,
    disclosure: 'Certificate-transparency observations do not prove that a host is live.',
  };
}

/**
 * The receipt of a run as the wallet's ledger would have it: a paid run's hold, then its capture
 * (completed) or release (failed, cancelled); a free run has no lines.
 */
export function fakeReceipt(record: RunRecord, quote: Quote): RunReceiptResponse {
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
  return {
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
  };
}
