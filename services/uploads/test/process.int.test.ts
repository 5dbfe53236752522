import { startTestStack, type TestStack } from '@svc/testkit';

/** main.ts wiring: the real process with its health, readiness (storage included) and internal server. */
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ services: ['uploads'] });
});

afterAll(async () => {
  await stack?.close();
});

/** The internal server's port, from its `listening` line. */
function dataPort(): number {
  for (const line of stack.logs('uploads').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry: { msg?: string; server?: string; port?: number } = JSON.parse(line);
    if (entry.msg === 'listening' && entry.server === 'data' && typeof entry.port === 'number')
      return entry.port;
  }
  throw new Error('the uploads service logged no data server port');
}

describe('uploads process', () => {
  it('is ready with redis, postgres and storage checked', async () => {
    const response = await fetch(`${stack.healthUrl('uploads')}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { checks: Record<string, unknown> };
    expect(Object.keys(body.checks).sort()).toEqual(['postgres', 'redis', 'storage']);
  });

  it('serves the internal upload route, errors as ErrorResponse', async () => {
    const base = `http://127.0.0.1:${dataPort()}`;
    const unauthorized = await fetch(`${base}/internal/uploads/3f9c2a1e-0b4d-4c5e-8f6a-7b8c9d0e1f2a`, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: 'x',
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="uploads"');
    expect(await unauthorized.json()).toMatchObject({ ok: false });
    const missing = await fetch(`${base}/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ ok: false, error: 'no route for GET /nothing-here' });
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await stack.stop('uploads')).toBe(0);
  });
});
