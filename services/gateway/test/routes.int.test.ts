import { randomUUID } from 'node:crypto';
import { get } from 'node:http';
import {
  apiOperations,
  DescribeCapabilityResponse,
  ErrorResponse,
  HealthResponse,
  ListCapabilitiesResponse,
  ReadinessResponse,
  SCOPES,
} from '@svc/contracts';
import { type AppHarness, startAppHarness } from './support/app-harness';

/** An operation's path template with every parameter filled in (a UUID for ids). */
function concretePath(template: string): string {
  return template
    .replace('{slug}', 'crt')
    .replace(/\{(?:run_id|upload_id|artifact_id)\}/g, () => randomUUID());
}

async function errorOf(response: Response): Promise<string> {
  return ErrorResponse.parse(await response.json()).error;
}

describe('gateway routes (real registry and wallet handlers)', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  beforeEach(() => app.platform.rpc.clearFaults());

  describe('GET /api/capabilities', () => {
    it('answers a contract-valid list with Cache-Control from the cache TTL', async () => {
      const response = await app.fetch('/api/capabilities?q=certificate%20transparency&limit=5');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=30');
      const body = ListCapabilitiesResponse.parse(await response.json());
      expect(body.capabilities.map((c) => c.slug)).toEqual(['crt', 'crt-batch-plan']);
      expect(body.query).toEqual({ q: 'certificate transparency', category: null, limit: 5 });
    });

    it.each([
      ['limit=0', /^query\.limit: /],
      ['limit=101', /^query\.limit: /],
      ['limit=abc', /^query\.limit: /],
      ['limit=1&limit=2', /^query\.limit: /],
      ['catgory=security', /catgory/],
      ['category=Not%20A%20Slug', /^query\.category: /],
    ])('422 for %s', async (query, message) => {
      const response = await app.fetch(`/api/capabilities?${query}`);
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toMatch(message);
    });

    it('makes one registry call for repeated equivalent queries', async () => {
      const before = app.requests('registry', 'search').length;
      for (const q of ['Unique%20Words', 'unique%20words', '%20unique%20%20words%20']) {
        expect((await app.fetch(`/api/capabilities?q=${q}`)).status).toBe(200);
      }
      expect(app.requests('registry', 'search').length).toBe(before + 1);
    });

    it('503 ErrorResponse when the registry is down and the answer is not cached', async () => {
      app.platform.rpc.down('registry');
      const response = await app.fetch('/api/capabilities?q=never-asked-before');
      expect(response.status).toBe(503);
      expect(await errorOf(response)).toMatch(/registry/);
    });
  });

  describe('GET /api/capabilities/:slug', () => {
    it('describes a known slug (contract-valid, with machine_run_status and input_schema)', async () => {
      const response = await app.fetch('/api/capabilities/crt');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=30');
      const body = DescribeCapabilityResponse.parse(await response.json());
      expect(body.capability.execution.machine_run_status).toBe('supported');
      expect(body.input_schema).toMatchObject({ type: 'object' });
    });

    it.each(['nope', 'Not_A_Slug', 'x'.repeat(65)])('404 "unknown capability" for %s', async (slug) => {
      const response = await app.fetch(`/api/capabilities/${slug}`);
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toMatch(/^unknown capability: /);
    });

    it('does not ask the registry about a slug that cannot exist', async () => {
      const before = app.requests('registry', 'describe').length;
      await app.fetch('/api/capabilities/UPPER');
      expect(app.requests('registry', 'describe').length).toBe(before);
    });
  });

  describe('GET /openapi.json', () => {
    it('serves the document with a strong ETag and answers If-None-Match with 304', async () => {
      const response = await app.fetch('/openapi.json');
      expect(response.status).toBe(200);
      const etag = response.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const document = (await response.json()) as { info: { version: string } };
      expect(document.info.version).toBe('2026-08-restoration-local');
      // node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests, which
      // (rightly) forces a full answer.
      const again = await new Promise<number | undefined>((resolve, reject) => {
        get(`${app.url}/openapi.json`, { headers: { 'If-None-Match': etag ?? '' } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        }).on('error', reject);
      });
      expect(again).toBe(304);
    });
  });

  describe('health', () => {
    it('/healthz answers HealthResponse', async () => {
      const response = await app.fetch('/healthz');
      expect(response.status).toBe(200);
      expect(HealthResponse.parse(await response.json()).service).toBe('gateway');
    });

    it('/readyz answers 503 with the failing check when one fails', async () => {
      const failing = await startAppHarness({
        readiness: async () => ({
          ok: false,
          service: 'gateway',
          checks: { redis: { ok: true }, database: { ok: false, error: 'timed out after 1000 ms' } },
        }),
      });
      try {
        const response = await failing.fetch('/readyz');
        expect(response.status).toBe(503);
        expect(ReadinessResponse.parse(await response.json()).checks.database?.ok).toBe(false);
      } finally {
        await failing.close();
      }
      const ok = await app.fetch('/readyz');
      expect(ok.status).toBe(200);
      expect(ReadinessResponse.parse(await ok.json()).ok).toBe(true);
    });
  });

  it('records each request with its route template, never the raw path', async () => {
    await app.fetch('/api/capabilities/crt', { headers: { 'X-Request-Id': 'metrics-1' } });
    await app.fetch('/definitely/not/here');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const routes = app.samples.map((s) => `${s.method} ${s.route} ${s.status}`);
    expect(routes).toContain('GET /api/capabilities/:slug 200');
    expect(routes).toContain('GET unmatched 404');
    expect(routes.some((r) => r.includes('/crt'))).toBe(false);
  });

  it('checks exactly the scopes each operation declares in x-required-scopes', async () => {
    let checked = 0;
    for (const op of apiOperations) {
      if (op.auth.kind !== 'key' || op.auth.scopes.length === 0) continue;
      const required = op.auth.scopes;
      const path = concretePath(op.path);
      const at = `${op.method} ${op.path}`;
      const call = (apiKey: string) =>
        app.fetch(path, {
          method: op.method.toUpperCase(),
          headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
          ...(op.method === 'get' ? {} : { body: '{}' }),
        });
      // Every scope but the declared ones: 403 naming them.
      const others = SCOPES.filter((scope) => !required.includes(scope));
      const forbidden = await call(app.issueKey(others));
      expect(`${at} ${forbidden.status}`).toBe(`${at} 403`);
      expect(await errorOf(forbidden)).toContain(required.join(', '));
      // Exactly the declared ones: past the scope check (whatever the route then answers).
      const allowed = await call(app.issueKey([...required]));
      expect({ at, passed: ![401, 403].includes(allowed.status) }).toEqual({ at, passed: true });
      await allowed.arrayBuffer();
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(9);
  });

  it('serves every operation of the OpenAPI document with the auth it declares', async () => {
    for (const op of apiOperations) {
      const path = concretePath(op.path);
      const response = await app.fetch(path, { method: op.method.toUpperCase() });
      expect([404, 405]).not.toContain(response.status);
      // The upload PUT has no key check of its own: the 401 is the uploads service's answer.
      const expected = op.auth.kind === 'public' ? 200 : 401;
      expect(`${op.method} ${op.path} ${response.status}`).toBe(`${op.method} ${op.path} ${expected}`);
      await response.arrayBuffer();
    }
  });
});
