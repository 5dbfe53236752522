import { HealthResponse, ReadinessResponse } from '@svc/contracts';
import { memoryLogger } from '@svc/log';
import { Redis } from 'ioredis';
import { Counter, type HealthServer, redisCheck, startHealthServer } from '../src';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('health server', () => {
  const { logger, lines } = memoryLogger('health-test');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  let healthy = true;
  let server: HealthServer;

  beforeAll(async () => {
    server = await startHealthServer({
      service: 'demo',
      port: 0,
      host: '127.0.0.1',
      logger,
      checkTimeoutMs: 300,
      checks: {
        redis: redisCheck(redis),
        flaky: async () => {
          if (!healthy) throw new Error('connect ECONNREFUSED postgres://app:hunter2@db:5432/app');
        },
        slow: async () => {
          // unref: the abandoned 2 s wait must not keep jest alive after the suite.
          if (!healthy) await new Promise((resolve) => setTimeout(resolve, 2_000).unref());
        },
      },
    });
  });

  afterAll(async () => {
    await server.close();
    await redis.quit();
  });

  it('logs the port it listens on', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(lines().find((line) => line.msg === 'listening')).toMatchObject({ port: server.port });
  });

  it('GET /healthz answers 200 HealthResponse', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    const body = HealthResponse.parse(await res.json());
    expect(body).toMatchObject({ ok: true, service: 'demo' });
    expect(body.uptime_s).toBeGreaterThanOrEqual(0);
  });

  it('GET /readyz answers 200 when every check passes', async () => {
    healthy = true;
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      service: 'demo',
      checks: { redis: { ok: true }, flaky: { ok: true }, slow: { ok: true } },
    });
  });

  it('GET /readyz answers 503 naming the failing checks (timeouts included), without secrets', async () => {
    healthy = false;
    const started = Date.now();
    const res = await fetch(`${server.url}/readyz`);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    const body = ReadinessResponse.parse(await res.json());
    expect(body.ok).toBe(false);
    expect(body.checks.redis).toEqual({ ok: true });
    expect(body.checks.flaky?.ok).toBe(false);
    expect(body.checks.flaky?.error).toBe('connect ECONNREFUSED postgres://app:***@db:5432/app');
    expect(JSON.stringify(body)).not.toContain('hunter2');
    expect(body.checks.slow).toEqual({ ok: false, error: 'no answer within 300 ms' });
    // Checks run in parallel and the slow one is cut at its timeout (300 ms), not after 2 s.
    expect(elapsed).toBeLessThan(1_500);
    healthy = true;
  });

  it('GET /metrics serves Prometheus text with default and service metrics', async () => {
    const counter = new Counter({ name: 'demo_requests_total', help: 'demo', registers: [server.registry] });
    counter.inc(3);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(/demo_requests_total\{service="demo"\} 3/);
  });

  it('answers 404 and 405 with an ErrorResponse', async () => {
    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ ok: false, error: 'not found' });

    const wrongMethod = await fetch(`${server.url}/healthz`, { method: 'POST' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(await wrongMethod.json()).toEqual({ ok: false, error: 'method POST not allowed' });
  });

  it('close() stops listening even with a keep-alive connection open', async () => {
    const other = await startHealthServer({
      service: 'other',
      port: 0,
      host: '127.0.0.1',
      logger,
      checks: {},
    });
    await fetch(`${other.url}/healthz`, { keepalive: true });
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(2_500);
    await expect(fetch(`${other.url}/healthz`)).rejects.toThrow();
  });
});
