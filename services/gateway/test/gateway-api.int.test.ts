import { ApiKeyStore, generateApiKey } from '@svc/auth';
import {
  BalanceResponse,
  DescribeCapabilityResponse,
  ErrorResponse,
  HealthResponse,
  ListCapabilitiesResponse,
  ReadinessResponse,
  WhoAmIResponse,
} from '@svc/contracts';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import { validateOpenApiDocument } from '@svc/openapi-check';
import {
  type FetchResult,
  pollUntil,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  sharedTestStack,
  type TestApiKey,
} from '@svc/testkit';

/**
 * The real gateway process in front of real registry and wallet processes, PostgreSQL and Redis
 * (@svc/testkit: the jest run's shared platform; this suite's own clients keep it apart).
 */

const CHALLENGE = 'Bearer realm="capability-service"';
const INVALID_TOKEN = 'Bearer realm="capability-service", error="invalid_token"';

function errorOf(result: FetchResult): string {
  return ErrorResponse.parse(result.json).error;
}

function slugs(result: FetchResult): string[] {
  expect(result.status).toBe(200);
  return ListCapabilitiesResponse.parse(result.json).capabilities.map((c) => c.slug);
}

describe('gateway (integration)', () => {
  let stack: SharedTestStack;
  let prisma: PrismaClient;
  let billing: TestApiKey;
  let readOnly: TestApiKey;

  beforeAll(async () => {
    stack = await sharedTestStack();
    prisma = createPrismaClient(stack.databaseUrl, { max: 2 });
    billing = await stack.createApiKey({
      scopes: ['billing:read', 'capabilities:read'],
      balanceUsd: '12.50',
    });
    readOnly = await stack.createApiKey({ scopes: ['capabilities:read'] });
  }, SHARED_STACK_BEFORE_ALL_MS);
  afterAll(async () => {
    await prisma?.$disconnect();
    await stack?.close();
  });

  describe('authentication (spec §5)', () => {
    it('401 with a challenge when the key is missing', async () => {
      const result = await stack.fetch('/api/account/whoami');
      expect(result.status).toBe(401);
      expect(result.headers.get('www-authenticate')).toBe(CHALLENGE);
      expect(errorOf(result)).toBe('missing API key: send Authorization: Bearer <API_KEY>');
    });

    it('401 invalid_token for a malformed key and for a well-formed unknown key', async () => {
      const unknownButWellFormed = generateApiKey().apiKey; // valid checksum, never stored
      for (const apiKey of ['not-a-key', unknownButWellFormed, `${billing.apiKey}x`]) {
        const result = await stack.fetch('/api/account/whoami', { apiKey });
        expect(result.status).toBe(401);
        expect(result.headers.get('www-authenticate')).toBe(INVALID_TOKEN);
        ErrorResponse.parse(result.json);
      }
      const basic = await stack.fetch('/api/account/whoami', {
        headers: { Authorization: 'Basic Zm9vOmJhcg==' },
      });
      expect(basic.status).toBe(401);
      expect(basic.headers.get('www-authenticate')).toBe(INVALID_TOKEN);
    });

    it('401 invalid_token once a key is revoked, without an event within the key cache age (1 s)', async () => {
      const doomed = await stack.createApiKey({ scopes: ['capabilities:read'] });
      expect((await stack.fetch('/api/account/whoami', { apiKey: doomed.apiKey })).status).toBe(200);
      // Revoked in the database only (no `apikey.revoked`): API_KEY_CACHE_TTL_MS bounds how long the
      // gateway's verified key lives (api-key-revocation.int.test.ts covers the event).
      expect(await new ApiKeyStore(prisma).revoke(doomed.keyId)).toBe(true);
      const result = await pollUntil(
        async () => {
          const answer = await stack.fetch('/api/account/whoami', { apiKey: doomed.apiKey });
          return answer.status === 401 ? answer : undefined;
        },
        { what: 'the revoked key to be refused', timeoutMs: 5_000, intervalMs: 100 },
      );
      expect(result.status).toBe(401);
      expect(result.headers.get('www-authenticate')).toBe(INVALID_TOKEN);
    });

    it('403 insufficient_scope naming billing:read', async () => {
      const result = await stack.fetch('/api/account/balance', { apiKey: readOnly.apiKey });
      expect(result.status).toBe(403);
      expect(result.headers.get('www-authenticate')).toBe(
        'Bearer realm="capability-service", error="insufficient_scope", scope="billing:read"',
      );
      expect(errorOf(result)).toMatch(/billing:read/);
    });

    it('whoami identifies the key', async () => {
      const result = await stack.fetch('/api/account/whoami', { apiKey: readOnly.apiKey });
      expect(result.status).toBe(200);
      const body = WhoAmIResponse.parse(result.json);
      expect(body).toMatchObject({
        client_id: readOnly.clientId,
        key_id: readOnly.keyId,
        scopes: ['capabilities:read'],
      });
    });

    it('balance answers the wallet of the key’s client over RPC', async () => {
      const result = await stack.fetch('/api/account/balance', { apiKey: billing.apiKey });
      expect(result.status).toBe(200);
      const body = BalanceResponse.parse(result.json);
      expect(body.client_id).toBe(billing.clientId);
      expect(Number(body.balance_usd)).toBe(12.5);
    });
  });

  describe('error shapes (spec §7.1: exactly {ok:false, error})', () => {
    it('404 for an unknown route', async () => {
      const result = await stack.fetch('/x');
      expect(result.status).toBe(404);
      expect(ErrorResponse.parse(result.json).error).toBe('no route for GET /x');
    });

    it('405 with Allow for a known path and another method, even with a malformed JSON body', async () => {
      for (const body of [undefined, '{"q": oops']) {
        const result = await stack.fetch('/api/capabilities', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        expect(result.status).toBe(405);
        expect(result.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        ErrorResponse.parse(result.json);
      }
    });

    it('404 "unknown capability" for an unknown or impossible slug', async () => {
      for (const slug of ['does-not-exist', 'NOT_A_SLUG']) {
        const result = await stack.fetch(`/api/capabilities/${slug}`);
        expect(result.status).toBe(404);
        expect(errorOf(result)).toBe(`unknown capability: ${slug}`);
      }
    });

    it.each(['limit=0', 'limit=101', 'limit=abc', 'catgory=security', 'q='])('422 for ?%s', async (query) => {
      const result = await stack.fetch(`/api/capabilities?${query}`);
      expect(result.status).toBe(422);
      ErrorResponse.parse(result.json);
    });

    it('echoes a sane X-Request-Id', async () => {
      const result = await stack.fetch('/healthz', { headers: { 'X-Request-Id': 'int-test-1' } });
      expect(result.headers.get('x-request-id')).toBe('int-test-1');
    });
  });

  describe('catalog through HTTP (spec §4.1, §4.2)', () => {
    it.each(['certificate transparency', 'certificates for my domain', 'crt'])(
      '"%s" finds crt first',
      async (q) => {
        const result = await stack.fetch(`/api/capabilities?q=${encodeURIComponent(q)}`);
        expect(slugs(result)[0]).toBe('crt');
        expect(result.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      },
    );

    it('filters by category', async () => {
      expect(slugs(await stack.fetch('/api/capabilities?category=security'))).toContain('crt');
      expect(slugs(await stack.fetch('/api/capabilities?category=no-such-category'))).toEqual([]);
    });

    it('honours limit bounds 1 and 100', async () => {
      expect(slugs(await stack.fetch('/api/capabilities?limit=1'))).toHaveLength(1);
      const all = ListCapabilitiesResponse.parse((await stack.fetch('/api/capabilities?limit=100')).json);
      expect(all.query.limit).toBe(100);
    });

    it('describes crt with execution.machine_run_status and input_schema', async () => {
      const result = await stack.fetch('/api/capabilities/crt');
      expect(result.status).toBe(200);
      const body = DescribeCapabilityResponse.parse(result.json);
      expect(body.capability.slug).toBe('crt');
      expect(typeof body.capability.execution.machine_run_status).toBe('string');
      expect(body.input_schema).toMatchObject({ type: 'object' });
    });
  });

  describe('system endpoints', () => {
    it('/openapi.json is a valid OpenAPI 3.1 document with the version label and public discovery', async () => {
      const result = await stack.fetch('/openapi.json');
      expect(result.status).toBe(200);
      expect(result.headers.get('etag')).toBeTruthy();
      const validation = await validateOpenApiDocument(result.json);
      expect(validation.errors).toEqual([]);
      expect(validation.valid).toBe(true);
      const document = result.json as {
        info: { version: string };
        paths: Record<string, { get: { security?: unknown[] } }>;
      };
      expect(document.info.version).toBe('2026-08-restoration-local');
      expect(document.paths['/api/capabilities']?.get.security).toEqual([]);
      expect(document.paths['/api/capabilities/{slug}']?.get.security).toEqual([]);
    });

    it('/healthz and /readyz', async () => {
      const health = await stack.fetch('/healthz');
      expect(health.status).toBe(200);
      expect(HealthResponse.parse(health.json).service).toBe('gateway');
      const ready = await stack.fetch('/readyz');
      expect(ready.status).toBe(200);
      expect(ReadinessResponse.parse(ready.json).checks).toEqual({
        redis: { ok: true },
        postgres: { ok: true },
      });
    });

    it('/metrics on HEALTH_PORT has the request duration histogram by route template', async () => {
      await stack.fetch('/api/capabilities/crt');
      const metrics = await (await fetch(`${stack.healthUrl('gateway')}/metrics`)).text();
      expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/capabilities\/:slug"/);
    });
  });

  it('never writes an API key to its output', async () => {
    await stack.fetch(`/api/account/balance?api_key=${billing.apiKey}`, {
      apiKey: billing.apiKey,
      headers: { 'X-Request-Id': 'key-in-logs' },
    });
    await pollUntil(() => stack.logs('gateway').includes('key-in-logs'), { what: 'the request in the log' });
    const output = stack.logs('gateway');
    expect(output).toContain('key-in-logs'); // the request was logged…
    expect(output).not.toContain(billing.apiKey); // …without the key
    expect(output).not.toContain(billing.apiKey.slice(-20));
  });
});
