/**
 * Realistic wire objects of one crt run (spec §2.2, §2.6, §4.5), shaped like what the wallet and
 * orchestrator produce: a zero-price quote whose id is the run id (docs/decisions.md C5, Q1), a
 * completed CrtResult and the RunRecord that carries it (C6). Each builder takes overrides so a test
 * changes one field at a time.
 */

export const RUN_ID = '6ba7b810-9dad-41d1-80b4-00c04fd430c8';
export const OTHER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

export const CRT_DISCLOSURE =
  'Certificate-transparency observations list hostnames that appeared in publicly logged TLS certificates. ' +
  'They do not prove that a host exists in DNS, is live, or is reachable, and they may include retired names.';

type Overrides = Record<string, unknown>;

export function quote(overrides: Overrides = {}) {
  return {
    quote_id: RUN_ID,
    slug: 'crt',
    price_usd: '0',
    currency: 'USD',
    wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' },
    created_at: '2026-11-21T10:40:57.123Z',
    expires_at: '2026-11-21T10:55:57.123Z',
    ...overrides,
  };
}

export function crtResult(overrides: Overrides = {}) {
  return {
    status: 'completed',
    summary:
      'Found 2 distinct hostnames for example.com in certificate-transparency logs (crt.sh); returning 2 (limit 100).',
    apex: 'example.com',
    count: 2,
    limit: 100,
    include_first_seen: true,
    observations: [
      { hostname: 'mail.example.com', first_seen: '2024-01-02T03:04:05.123+02:00' },
      { hostname: 'www.example.com', first_seen: '2024-01-02T03:04:05Z' },
    ],
    provider: 'crt.sh',
    live_hosts_verified: false,
    disclosure: CRT_DISCLOSURE,
    ...overrides,
  };
}

/** A completed run; pass `status` and drop/replace `result`/`error` for the other states. */
export function runRecord(overrides: Overrides = {}) {
  return {
    run_id: RUN_ID,
    status: 'completed',
    slug: 'crt',
    client_type: 'api',
    quote_id: RUN_ID,
    created_at: '2026-11-21T10:40:57.123Z',
    updated_at: '2026-11-21T10:40:58.456Z',
    started_at: '2026-11-21T10:40:57.300Z',
    finished_at: '2026-11-21T10:40:58.456Z',
    attempts: 1,
    price_usd: '0',
    runtime: 'node',
    waiting_for_runtime: null,
    cancel_requested_at: null,
    status_message: 'completed',
    result: crtResult(),
    ...overrides,
  };
}

/** A run still waiting for a worker: no timestamps after creation, no result. */
export function queuedRunRecord(overrides: Overrides = {}) {
  const { result: _result, ...record } = runRecord({
    status: 'queued',
    started_at: null,
    finished_at: null,
    attempts: 0,
    status_message: 'queued: waiting for a worker',
    updated_at: '2026-11-21T10:40:57.123Z',
  });
  return { ...record, ...overrides };
}

/** A run whose providers all failed (docs/decisions.md C8): `error`, no `result`. */
export function failedRunRecord(overrides: Overrides = {}) {
  const { result: _result, ...record } = runRecord({
    status: 'failed',
    status_message:
      'failed: crt providers unavailable: crt.sh: HTTP 502; certspotter: timed out after 15000 ms',
    error: {
      code: 'provider_unavailable',
      message: 'crt providers unavailable: crt.sh: HTTP 502; certspotter: timed out after 15000 ms',
    },
  });
  return { ...record, ...overrides };
}
