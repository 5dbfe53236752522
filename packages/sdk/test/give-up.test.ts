import type { RunStatusResponse } from '@svc/contracts';
import { ConflictError, NetworkError, RunAbortedError, SvcClient } from '../src';
import { cancelOutcome } from '../src/cancel-outcome';

/**
 * What a caller learns when it gives up on a run (SK5, SK15): the cancel's answer decides whether
 * anything may still be charged. And crt's 202 start answer (SK8), which a slow crt run gets.
 */

const RUN_ID = '5b1d7c3e-2f4a-4c1e-9d7b-0a6e2c4f8b13';
const NOW = '2026-12-07T10:00:00Z';

function runStatus(status: RunStatusResponse['status'], price = '0.004'): RunStatusResponse {
  return {
    ok: true,
    run_id: RUN_ID,
    status,
    slug: 'pii-redact',
    client_type: 'sdk',
    quote_id: RUN_ID,
    created_at: NOW,
    updated_at: NOW,
    started_at: status === 'queued' ? null : NOW,
    finished_at: status === 'cancelled' ? NOW : null,
    attempts: status === 'queued' ? 0 : 1,
    price_usd: price,
    runtime: 'node',
    waiting_for_runtime: null,
    cancel_requested_at: status === 'running' ? NOW : null,
    status_message: status,
  };
}

/** A client whose gateway answers `route(method, path)` (JSON, with its status). */
function client(route: (method: string, path: string) => { status: number; body: unknown }) {
  const fetchStub = (async (url: string | URL | Request, init?: RequestInit) => {
    const { status, body } = route(init?.method ?? 'GET', new URL(String(url)).pathname);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return new SvcClient({
    baseUrl: 'http://svc.test',
    apiKey: 'k',
    fetch: fetchStub,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
}

describe('the cancel of a run given up on', () => {
  it('says nothing is charged when the run was cancelled (it was queued or retrying)', () => {
    expect(cancelOutcome(RUN_ID, runStatus('cancelled'), undefined)).toBe(
      `run ${RUN_ID} was cancelled on the server; nothing is charged`,
    );
  });

  it('says a running run was only asked to stop, and what it is charged if it completes first', () => {
    expect(cancelOutcome(RUN_ID, runStatus('running', '0.004'), undefined)).toBe(
      `the cancel of run ${RUN_ID} was requested; it is still running and stops at its next check ` +
        '(cancellation is cooperative): if it completes first it is charged its price, 0.004 USD',
    );
    expect(cancelOutcome(RUN_ID, runStatus('running', '0.00'), undefined)).toMatch(
      /if it completes first it is charged nothing \(a free run\)$/,
    );
  });

  it('passes on why a run had already ended (409), and that a failed cancel leaves the run going', () => {
    const ended = new ConflictError(409, `run ${RUN_ID} is already completed`);
    expect(cancelOutcome(RUN_ID, undefined, ended)).toBe(
      `run ${RUN_ID} had already ended (run ${RUN_ID} is already completed)`,
    );
    expect(cancelOutcome(RUN_ID, undefined, new NetworkError('POST /cancel: ECONNREFUSED'))).toBe(
      `the cancel of run ${RUN_ID} failed (POST /cancel: ECONNREFUSED): the run may go on and be charged its price`,
    );
  });

  it('an aborted wait of a running run throws RunAbortedError with the cancel answer', async () => {
    const c = client((method, path) =>
      method === 'POST' && path.endsWith('/cancel')
        ? { status: 202, body: runStatus('running') }
        : { status: 200, body: runStatus('running') },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const thrown = await c
      .waitForRun(RUN_ID, { signal: controller.signal, pollIntervalMs: 5 })
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(RunAbortedError);
    expect(thrown).toMatchObject({
      runId: RUN_ID,
      cancelError: undefined,
      cancelAnswer: { status: 'running', cancel_requested_at: NOW },
    });
    expect((thrown as RunAbortedError).message).toContain('if it completes first it is charged its price');
  });
});

describe('crt start answers', () => {
  it('a 202 with the run status (not finished within the route wait) is a started run', async () => {
    const c = client(() => ({ status: 202, body: { ...runStatus('running', '0.00'), slug: 'crt' } }));
    const started = await c.startRun('crt', { apex: 'example.com' }, { quoteId: RUN_ID });
    expect(started).toMatchObject({ runId: RUN_ID, status: 'running', quote: null, idempotentReplay: false });
    expect(started.run).toMatchObject({ run_id: RUN_ID, slug: 'crt', status: 'running' });
    expect(started.run).not.toHaveProperty('ok');
  });
});

describe('whoami', () => {
  it('reads GET /api/account/whoami with the contract', async () => {
    const answer = {
      ok: true,
      client_id: RUN_ID,
      client_name: 'acme',
      key_id: 'key_1',
      scopes: ['capabilities:run'],
    };
    const seen: string[] = [];
    const c = client((method, path) => {
      seen.push(`${method} ${path}`);
      return { status: 200, body: answer };
    });
    await expect(c.whoami()).resolves.toEqual(answer);
    expect(seen).toEqual(['GET /api/account/whoami']);
  });
});
