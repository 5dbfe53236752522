import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_STATE_TRANSITIONS, TERMINAL_RUN_STATES } from '@svc/contracts';
import {
  ArtifactIntegrityError,
  backoffDelay,
  CapabilityNotRunnableError,
  ConflictError,
  MAX_RETRY_AFTER_MS,
  NetworkError,
  PaymentRequiredError,
  parseRetryAfter,
  RateLimitError,
  retryDelay,
  ServiceUnavailableError,
  SvcClient,
  TERMINAL_STATES,
  UnknownRunStateError,
  ValidationError,
} from '../src';

/** A fetch that answers from a script and records every request. */
function fakeFetch(answers: Array<() => Response | Promise<Response>>) {
  const calls: Array<{
    url: string;
    method: string;
    headers: Record<string, string>;
    body: string | undefined;
  }> = [];
  const impl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = { ...(init?.headers as Record<string, string>) };
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers,
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    return next();
  };
  return { fetch: impl as typeof fetch, calls };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
const error = (status: number, text: string, headers: Record<string, string> = {}) =>
  json(status, { ok: false, error: text }, headers);

const RUN_ID = '0b6c6e0e-7d1e-4d8c-9a53-2f3c1d1b0a11';
const NOW = '2026-11-26T17:00:00Z';
function runRecord(status: string) {
  return {
    ok: true,
    run_id: RUN_ID,
    status,
    slug: 'pii-redact',
    client_type: 'sdk',
    quote_id: RUN_ID,
    created_at: NOW,
    updated_at: NOW,
    started_at: null,
    finished_at: null,
    attempts: 0,
    price_usd: '0.004',
    runtime: 'node',
    waiting_for_runtime: null,
    cancel_requested_at: null,
    status_message: 'x',
  };
}

function client(fetchImpl: typeof fetch, attempts = 4) {
  const c = new SvcClient({
    baseUrl: 'http://svc.test/',
    apiKey: 'k',
    fetch: fetchImpl,
    retry: { attempts, baseDelayMs: 1, maxDelayMs: 4 },
  });
  c.random = () => 0;
  return c;
}

describe('Retry-After', () => {
  const now = Date.parse('2026-11-26T17:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });
  it('reads an HTTP-date relative to now, a past date as 0', () => {
    expect(parseRetryAfter('Thu, 26 Nov 2026 17:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Thu, 26 Nov 2026 16:59:00 GMT', now)).toBe(0);
  });
  it('ignores what is neither', () => {
    for (const value of [undefined, null, '', '-1', '1.5', 'soon', '2026-11-26T17:00:05Z']) {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    }
  });
  it('is followed over the backoff, and a too long one is not waited for', () => {
    const options = { attempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelay(0, options, 3000, () => 0.5)).toBe(3000);
    expect(retryDelay(0, options, MAX_RETRY_AFTER_MS + 1, () => 0.5)).toBeUndefined();
  });
});

describe('backoff with full jitter', () => {
  const options = { attempts: 10, baseDelayMs: 100, maxDelayMs: 1000 };
  it('stays within [0, min(cap, base * 2^retry)]', () => {
    for (let retry = 0; retry < 8; retry++) {
      const ceiling = Math.min(1000, 100 * 2 ** retry);
      expect(backoffDelay(retry, options, () => 0)).toBe(0);
      expect(backoffDelay(retry, options, () => 0.999999)).toBe(ceiling - 1);
      for (let i = 0; i < 50; i++) {
        const delay = backoffDelay(retry, options);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    }
  });
});

describe('which answers are retried', () => {
  it.each([502, 503, 504, 429])('%i is retried, then succeeds', async (status) => {
    const { fetch, calls } = fakeFetch([
      error(status, 'busy', { 'retry-after': '0' }),
      json(200, runRecord('queued')),
    ]);
    await expect(client(fetch).getRun(RUN_ID)).resolves.toMatchObject({ status: 'queued' });
    expect(calls).toHaveLength(2);
  });

  it.each([
    [400, 'BadRequestError'],
    [401, 'AuthenticationError'],
    [402, 'PaymentRequiredError'],
    [403, 'PermissionDeniedError'],
    [404, 'NotFoundError'],
    [408, 'ApiError'],
    [409, 'ConflictError'],
    [422, 'ValidationError'],
    [500, 'ServiceUnavailableError'],
  ])('%i is not retried and is a %s with the ErrorResponse text', async (status, name) => {
    const { fetch, calls } = fakeFetch([
      error(status, `the reason ${status}`),
      json(200, runRecord('queued')),
    ]);
    const thrown = await client(fetch)
      .getRun(RUN_ID)
      .catch((e: unknown) => e);
    expect(thrown).toMatchObject({ name, status, error: `the reason ${status}` });
    expect(calls).toHaveLength(1);
  });

  it('a 402 of a run is a PaymentRequiredError after one request', async () => {
    const { fetch, calls } = fakeFetch([error(402, 'balance 0 USD is below the price 0.004 USD')]);
    await expect(
      client(fetch).startRun('pii-redact', { text: 'x' }, { quoteId: RUN_ID }),
    ).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(calls).toHaveLength(1);
  });

  it('network errors are retried; spent retries throw the last error', async () => {
    const fail = () => Promise.reject(new TypeError('fetch failed'));
    const { fetch, calls } = fakeFetch([fail, fail, fail]);
    await expect(client(fetch, 3).getRun(RUN_ID)).rejects.toBeInstanceOf(NetworkError);
    expect(calls).toHaveLength(3);
  });

  it('429 after the last try is a RateLimitError with its Retry-After', async () => {
    const { fetch } = fakeFetch([
      error(429, 'slow down', { 'retry-after': '0' }),
      error(429, 'slow down', { 'retry-after': '0' }),
    ]);
    const thrown = await client(fetch, 2)
      .balance()
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RateLimitError);
    expect((thrown as RateLimitError).retryAfterMs).toBe(0);
  });

  it('a 5xx that lasts is a ServiceUnavailableError', async () => {
    const { fetch, calls } = fakeFetch([error(503, 'down'), error(503, 'down')]);
    await expect(client(fetch, 2).balance()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(calls).toHaveLength(2);
  });

  it('a retried start sends the same Idempotency-Key every time', async () => {
    const started = {
      ok: true,
      run_id: RUN_ID,
      status: 'queued',
      idempotent_replay: false,
      quote: null,
      run: { ...runRecord('queued'), ok: undefined },
    };
    delete (started.run as Record<string, unknown>).ok;
    const { fetch, calls } = fakeFetch([
      error(503, 'the run may have been recorded'),
      () => Promise.reject(new TypeError('fetch failed')),
      json(202, started),
    ]);
    const result = await client(fetch).startRun('pii-redact', { text: 'x' }, { quoteId: RUN_ID });
    expect(calls).toHaveLength(3);
    const keys = calls.map((call) => call.headers['Idempotency-Key']);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(result.idempotencyKey);
    expect(result.idempotencyKey).toMatch(/^sdk-[0-9a-f-]{36}$/);
  });

  it('a bad Idempotency-Key of the caller is refused before any request', async () => {
    const { fetch, calls } = fakeFetch([]);
    await expect(
      client(fetch).startRun('pii-redact', {}, { idempotencyKey: 'short' }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(calls).toHaveLength(0);
  });
});

describe('waiting for a run (Prefer: wait, issue 25 item 7)', () => {
  const applied = (seconds: number) => ({ 'preference-applied': `wait=${seconds}` });

  it('asks the gateway to wait (5 s while queued, 55 s once running) and reads again at once when it did', async () => {
    const { fetch, calls } = fakeFetch([
      json(200, runRecord('queued'), applied(5)),
      json(200, runRecord('running'), applied(5)),
      json(200, runRecord('completed'), applied(55)),
    ]);
    const seen: string[] = [];
    const run = await client(fetch).waitForRun(RUN_ID, {
      // Were it used, the three reads would take a minute (past the test's timeout).
      pollIntervalMs: 30_000,
      onProgress: (event) => {
        if (event.phase === 'status') seen.push(event.status);
      },
    });
    expect(run.status).toBe('completed');
    expect(seen).toEqual(['queued', 'running', 'completed']);
    expect(calls.map((call) => [call.method, call.headers.Prefer])).toEqual([
      ['GET', 'wait=5'],
      ['GET', 'wait=5'],
      ['GET', 'wait=55'],
    ]);
  });

  it('polls at pollIntervalMs when the gateway does not say Preference-Applied (one that does not wait)', async () => {
    const { fetch, calls } = fakeFetch([json(200, runRecord('queued')), json(200, runRecord('completed'))]);
    const slept: number[] = [];
    const realSetTimeout = global.setTimeout;
    const spy = jest.spyOn(global, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      if (ms === 1_234) slept.push(ms);
      return realSetTimeout(fn, ms === 1_234 ? 0 : ms);
    }) as typeof setTimeout);
    try {
      const run = await client(fetch).waitForRun(RUN_ID, { pollIntervalMs: 1_234 });
      expect(run.status).toBe('completed');
    } finally {
      spy.mockRestore();
    }
    expect(calls).toHaveLength(2);
    expect(slept).toEqual([1_234]);
  });
});

describe('run states', () => {
  it('terminal states are those without transitions, as the contract says', () => {
    expect([...TERMINAL_STATES].sort()).toEqual([...TERMINAL_RUN_STATES].sort());
    for (const state of TERMINAL_STATES) expect(RUN_STATE_TRANSITIONS[state]).toEqual([]);
  });

  it('an unknown state is an UnknownRunStateError, not a hang', async () => {
    const { fetch } = fakeFetch([json(200, runRecord('paused'))]);
    await expect(client(fetch).waitForRun(RUN_ID, { pollIntervalMs: 1 })).rejects.toBeInstanceOf(
      UnknownRunStateError,
    );
  });

  it('a deadline cancels the run on the server', async () => {
    const answers = Array.from({ length: 200 }, () => json(200, runRecord('queued')));
    const { fetch, calls } = fakeFetch(answers);
    let cancelled = false;
    const wrapped = (async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input).endsWith('/cancel')) {
        cancelled = true;
        return json(200, runRecord('cancelled'))();
      }
      return fetch(input, init);
    }) as typeof fetch;
    await expect(
      client(wrapped).waitForRun(RUN_ID, { deadlineMs: 30, pollIntervalMs: 5 }),
    ).rejects.toMatchObject({
      name: 'DeadlineExceededError',
      runId: RUN_ID,
    });
    expect(cancelled).toBe(true);
    expect(calls.length).toBeGreaterThan(0);
  });

  it('a cancel of a run that finished meanwhile (409) is not an error of the wait', async () => {
    const { fetch } = fakeFetch([...Array.from({ length: 50 }, () => json(200, runRecord('running')))]);
    const wrapped = (async (input: string | URL | Request, init?: RequestInit) =>
      String(input).endsWith('/cancel')
        ? error(409, 'run is already completed')()
        : fetch(input, init)) as typeof fetch;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const thrown = await client(wrapped)
      .waitForRun(RUN_ID, { signal: controller.signal, pollIntervalMs: 5 })
      .catch((e: unknown) => e);
    expect(thrown).toMatchObject({ name: 'RunAbortedError', runId: RUN_ID, cancelError: undefined });
    expect(new ConflictError(409, 'x')).toBeInstanceOf(Error);
  });
});

describe('execution modes (spec §2.1)', () => {
  function describeAnswer(execution: Record<string, unknown>) {
    return {
      ok: true,
      capability: { slug: 'thing', execution },
      input_schema: {},
    };
  }
  it.each([
    [{ machine_run_status: 'describe_only', effective_status: 'describe_only' }],
    [{ effective_status: 'supported' }],
    [{ machine_run_status: 'teleport', effective_status: 'describe_only' }],
    [{ machine_run_status: 'Supported', effective_status: 'supported' }],
  ])('%j is refused before any quote', async (execution) => {
    const { fetch, calls } = fakeFetch([json(200, describeAnswer(execution))]);
    await expect(client(fetch).run('thing', {})).rejects.toBeInstanceOf(CapabilityNotRunnableError);
    expect(calls.map((call) => call.url)).toEqual(['http://svc.test/api/capabilities/thing']);
  });
});

describe('downloads', () => {
  const body = Buffer.from('hello artifact');
  const sha256 = createHash('sha256').update(body).digest('hex');
  const artifact = {
    artifact_id: RUN_ID,
    run_id: RUN_ID,
    name: 'text.txt',
    content_type: 'text/plain',
    size_bytes: body.length,
    sha256,
    created_at: NOW,
    download_url: `http://svc.test/api/artifacts/${RUN_ID}/download?expires=1&signature=x`,
    download_expires_at: NOW,
  };
  const bytes = (buffer: Buffer) => () => new Response(new Uint8Array(buffer), { status: 200 });
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sdk-unit-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps a file whose size and SHA-256 match, sending the key to the gateway only', async () => {
    const { fetch, calls } = fakeFetch([bytes(body)]);
    const saved = await client(fetch).downloadArtifact(artifact, join(dir, 'ok.txt'));
    expect(saved.sha256).toBe(sha256);
    expect(readFileSync(join(dir, 'ok.txt'))).toEqual(body);
    expect(calls[0]?.headers.Authorization).toBe('Bearer k');
  });

  it.each([
    ['one byte flipped', Buffer.from('hello artifacu')],
    ['one byte short', Buffer.from('hello artifac')],
    ['one byte long', Buffer.from('hello artifact!')],
  ])('refuses %s and deletes the file', async (_what, wrong) => {
    const { fetch, calls } = fakeFetch([bytes(wrong), bytes(wrong)]);
    const target = join(dir, 'bad.txt');
    await expect(client(fetch).downloadArtifact(artifact, target)).rejects.toBeInstanceOf(
      ArtifactIntegrityError,
    );
    expect(existsSync(target)).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it('a link to another origin is followed without the API key', async () => {
    const { fetch, calls } = fakeFetch([bytes(body)]);
    const foreign = { ...artifact, download_url: 'http://elsewhere.test/x' };
    await client(fetch).downloadArtifact(foreign, join(dir, 'foreign.txt'));
    expect(calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('a destination that cannot be written is an error of its own, not retried', async () => {
    const { fetch, calls } = fakeFetch([bytes(body), bytes(body)]);
    const thrown = await client(fetch)
      .downloadArtifact(artifact, join(dir, 'missing-dir', 'x.txt'))
      .catch((e: unknown) => e);
    expect(thrown).toMatchObject({ name: 'SvcError', status: 0 });
    expect(String((thrown as Error).message)).toMatch(/ENOENT/);
    expect(calls).toHaveLength(1);
  });
});

describe('listing runs (fake gateway)', () => {
  const summary = (status: string) => {
    const {
      ok: _ok,
      quote_id: _q,
      runtime: _r,
      waiting_for_runtime: _w,
      status_message: _s,
      ...rest
    } = runRecord(status);
    return rest;
  };
  const page = (status: string, nextCursor: string | null) =>
    json(200, { ok: true, runs: [summary(status)], next_cursor: nextCursor });

  it('sends the parsed query and follows next_cursor to the last page', async () => {
    const { fetch, calls } = fakeFetch([page('completed', 'c1'), page('failed', null)]);
    const runs = [];
    for await (const run of client(fetch).iterateRuns({ state: 'completed', limit: 1 }))
      runs.push(run.status);
    expect(runs).toEqual(['completed', 'failed']);
    expect(calls.map((call) => new URL(call.url).search)).toEqual([
      '?state=completed&limit=1',
      '?state=completed&cursor=c1&limit=1',
    ]);
  });

  it('a next_cursor that repeats the cursor sent ends the iteration with InvalidResponseError', async () => {
    const { fetch, calls } = fakeFetch([page('completed', 'c1'), page('completed', 'c1')]);
    const seen: string[] = [];
    const iterate = async () => {
      for await (const run of client(fetch).iterateRuns()) seen.push(run.run_id);
    };
    await expect(iterate()).rejects.toThrow(/next_cursor repeats/);
    expect(calls).toHaveLength(2);
  });

  it('a listed run in an unknown state is UnknownRunStateError', async () => {
    const { fetch } = fakeFetch([page('sleeping', null)]);
    await expect(client(fetch).listRuns()).rejects.toBeInstanceOf(UnknownRunStateError);
  });
});
