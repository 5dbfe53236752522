import { CrtCompletedRunResponse, RunStatusResponse } from '@svc/contracts';
import { exampleComExpectedObservations, type TestApiKey } from '@svc/testkit';
import {
  asInstants,
  type CrtStack,
  errorBody,
  getRun,
  postCrtRun,
  runIdInMessage,
  startCrtStack,
} from './support/crt-e2e';

/**
 * The worker's providers end to end: failover from crt.sh to Cert Spotter, both failing (502 and a
 * failed run), an answer larger than the size cap, a provider that never answers, retries and the
 * per-apex cache. Small timeouts and cap through the worker's env keep the suite quick; each test
 * uses its own apex, so the cache of one test does not serve another.
 */

const MAX_BYTES = 256 * 1024; // bytes: CRT_PROVIDER_MAX_BYTES for this suite

describe('crt providers, end to end', () => {
  let crt: CrtStack;
  let runner: TestApiKey;

  beforeAll(async () => {
    crt = await startCrtStack(
      {
        CRT_PROVIDER_TIMEOUT_MS: '1000', // ms per HTTP attempt: a hanging provider costs ~1 s an attempt
        CRT_PROVIDER_ATTEMPTS: '2',
        CRT_RUN_DEADLINE_MS: '8000', // ms for both providers together, failover included
        CRT_PROVIDER_MAX_BYTES: String(MAX_BYTES),
        CRT_CACHE_TTL_MS: '120000', // ms: longer than the suite, so a second run is always a cache hit
      },
      { certSpotterPageSize: 5, retryAfterSeconds: 1 },
    );
    runner = await crt.stack.createApiKey({ scopes: ['capabilities:run'] });
  }, 120_000);
  afterEach(() => crt.fake.reset());
  afterAll(() => crt?.close());

  async function completed(apex: string, extra: Record<string, unknown> = {}) {
    const result = await postCrtRun(crt.stack, { input: { apex, ...extra } }, { apiKey: runner.apiKey });
    expect(result.status).toBe(200);
    return CrtCompletedRunResponse.parse(result.json);
  }

  it('fails over to Cert Spotter when crt.sh answers 502, reading every page', async () => {
    crt.fake.setBehaviour('crt.sh', 'status:502');
    const body = await completed('example.com', { include_first_seen: true });
    expect(body.result.provider).toBe('certspotter');
    expect(asInstants(body.result.observations)).toEqual(
      asInstants(exampleComExpectedObservations().certspotter),
    );
    expect(body.result.summary).toContain('(certspotter)');
    expect(crt.fake.calls('crt.sh', 'example.com')).toBe(2); // CRT_PROVIDER_ATTEMPTS: 502 is retried
    // 8 issuances in pages of 5: page 1, page 2, then the empty page that ends the listing.
    expect(crt.fake.calls('certspotter', 'example.com')).toBe(3);
    const pages = crt.fake
      .requests('certspotter')
      .map((request) => new URL(request.url, 'http://x').searchParams);
    expect(pages.map((query) => query.get('after'))).toEqual([null, '4630554002', '4630561222']);
    for (const query of pages) {
      expect(query.get('include_subdomains')).toBe('true');
      expect(query.get('expand')).toBe('dns_names');
    }
    // No CERTSPOTTER_TOKEN is set: no Authorization header at all.
    expect(crt.fake.requests('certspotter').every((request) => request.authorization === null)).toBe(true);
  });

  it('answers 502 and records a failed run when every provider fails; the failure is not cached', async () => {
    crt.fake.setBehaviour('crt.sh', 'status:503');
    crt.fake.setBehaviour('certspotter', 'status:500');
    const result = await postCrtRun(
      crt.stack,
      { input: { apex: 'both-down.com' } },
      { apiKey: runner.apiKey },
    );
    expect(result.status).toBe(502);
    const message = errorBody(result);
    expect(message).toMatch(
      /^run [0-9a-f-]{36} failed: crt providers unavailable: crt\.sh: .+; certspotter: .+$/,
    );
    const runId = runIdInMessage(message);

    const run = RunStatusResponse.parse((await getRun(crt.stack, runner.apiKey, runId)).json);
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('provider_unavailable');
    expect(run.error?.message).toBe(message.replace(`run ${runId} failed: `, ''));
    expect(run).not.toHaveProperty('result');
    expect(run.finished_at).not.toBeNull();
    const row = await crt.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(row.result).toBeNull(); // nothing half-written

    crt.fake.reset();
    const retried = await completed('both-down.com');
    expect(retried.run_id).not.toBe(runId);
    expect(retried.result.provider).toBe('crt.sh');
    expect(crt.fake.calls('crt.sh', 'both-down.com')).toBe(1);
  });

  it('completes from an answer far larger than CRT_PROVIDER_MAX_BYTES, and says it was truncated', async () => {
    crt.fake.setBehaviour('crt.sh', `huge:${64 * MAX_BYTES}`);
    const body = await completed('huge-answer.net', { limit: 1000 });
    expect(body.result.provider).toBe('crt.sh');
    expect(body.result.count).toBe(body.result.observations.length);
    expect(body.result.count).toBeGreaterThan(100);
    expect(body.result.summary).toMatch(/truncated/i);
    for (const { hostname } of body.result.observations) expect(hostname).toMatch(/\.huge-answer\.net$/);
  });

  it('fails over when crt.sh never answers', async () => {
    crt.fake.setBehaviour('crt.sh', 'hang');
    const body = await completed('hanging-crtsh.org');
    expect(body.result.provider).toBe('certspotter');
    expect(crt.fake.calls('crt.sh', 'hanging-crtsh.org')).toBeGreaterThanOrEqual(1);
  });

  it('retries a 429 after its Retry-After and stays with crt.sh', async () => {
    crt.fake.setBehaviour('crt.sh', 'status:429', { times: 1 });
    const body = await completed('rate-limited.io');
    expect(body.result.provider).toBe('crt.sh');
    expect(crt.fake.calls('crt.sh', 'rate-limited.io')).toBe(2);
    expect(crt.fake.calls('certspotter')).toBe(0);
  });

  it('does not fail a run on a crt.sh answer cut mid-JSON', async () => {
    crt.fake.setBehaviour('crt.sh', 'truncated');
    const body = await completed('cut-short.info');
    expect(['crt.sh', 'certspotter']).toContain(body.result.provider);
    for (const { hostname } of body.result.observations) expect(hostname).toMatch(/(^|\.)cut-short\.info$/);
  });

  it('serves a repeated apex from the per-apex cache without a second provider call', async () => {
    const first = await completed('cached-apex.com', { limit: 5 });
    const second = await completed('cached-apex.com', { limit: 5 });
    expect(second.run_id).not.toBe(first.run_id);
    expect(second.result).toEqual(first.result);
    expect(crt.fake.calls('crt.sh', 'cached-apex.com')).toBe(1);
  });
});
