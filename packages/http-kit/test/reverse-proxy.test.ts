import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { AppError } from '@svc/errors';
import express, { type NextFunction, type Request, type Response } from 'express';
import { type EdgeResponse, ERROR_PAGE_PATH, requestId, reverseProxy, upstreamErrorPage } from '../src';

// The gateway's `/dashboard` as the proxy serves it: a loopback server stands in for the dashboard
// process, an express app for the gateway (request id, an edge check that refuses, the proxy, the
// error page of the upstream).

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

let upstream: Server;
let upstreamUrl: string;
const seen: Seen[] = [];
let gateway: Server;
let gatewayUrl: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === ERROR_PAGE_PATH) {
        if (url.searchParams.get('status') === '418') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
          return;
        }
        res
          .writeHead(Number(url.searchParams.get('status')), {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy': "default-src 'none'",
            'cache-control': 'no-store',
          })
          .end(`<p data-status="${url.searchParams.get('status')}">${url.searchParams.get('message')}</p>`);
        return;
      }
      if (req.method === 'POST') {
        res
          .writeHead(303, { location: '/dashboard/keys', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] })
          .end();
        return;
      }
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'",
          'set-cookie': ['one=1; HttpOnly', 'two=2; HttpOnly'],
          connection: 'close, x-hop',
          'x-hop': 'per connection',
        })
        .end('<p>page</p>');
    });
  });
  upstreamUrl = await listen(upstream);
  const target = { baseUrl: upstreamUrl, connectTimeoutMs: 1_000, name: 'dashboard' };
  const app = express();
  app.use(requestId);
  // An edge check of the gateway's own: refuses /dashboard/spent with 429 and a Retry-After.
  app.use((req: Request, res: EdgeResponse, next: NextFunction) => {
    if (req.path === '/dashboard/spent') {
      res.setHeader('Retry-After', '7');
      throw new AppError(429, 'rate limit exceeded');
    }
    if (req.path === '/dashboard/teapot') throw new AppError(418, 'no page for this');
    next();
  });
  app.use('/dashboard', reverseProxy(target));
  app.use('/dashboard', upstreamErrorPage(target));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = err instanceof AppError ? err.status : 500;
    res.status(status).json({ ok: false, error: err instanceof Error ? err.message : 'internal error' });
  });
  gateway = createServer(app);
  gatewayUrl = await listen(gateway);
});

afterAll(async () => {
  await close(gateway);
  await close(upstream);
});

beforeEach(() => {
  seen.length = 0;
});

it('streams a page through: path and query as sent, the answer’s status, headers and body', async () => {
  const res = await fetch(`${gatewayUrl}/dashboard/runs?state=queued&x=%2F`, {
    headers: {
      cookie: 'svc_dashboard=abc',
      'x-forwarded-for': '203.0.113.66',
      'x-forwarded-host': 'evil.example',
      'x-request-id': 'req-1',
    },
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('<p>page</p>');
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
  expect(res.headers.getSetCookie()).toEqual(['one=1; HttpOnly', 'two=2; HttpOnly']);
  // Hop-by-hop headers (and those the upstream's Connection names) stay on their hop.
  expect(res.headers.get('x-hop')).toBeNull();
  const [request] = seen;
  expect(request).toMatchObject({ method: 'GET', url: '/dashboard/runs?state=queued&x=%2F' });
  expect(request?.headers).toMatchObject({
    host: new URL(gatewayUrl).host,
    cookie: 'svc_dashboard=abc',
    'x-request-id': 'req-1',
    // What the gateway made of the request (no trusted proxy: the client's own headers are ignored).
    'x-forwarded-for': '127.0.0.1',
    'x-forwarded-proto': 'http',
    'x-forwarded-host': new URL(gatewayUrl).host,
  });
});

it('streams a form body through and relays the redirect with every cookie', async () => {
  const res = await fetch(`${gatewayUrl}/dashboard/keys`, {
    method: 'POST',
    body: new URLSearchParams({ name: 'ci', scopes: 'billing:read' }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/dashboard/keys');
  expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  expect(seen[0]).toMatchObject({ method: 'POST', body: 'name=ci&scopes=billing%3Aread' });
  expect(seen[0]?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
});

it("answers this process's own refusal with the upstream's error page, its Retry-After kept", async () => {
  const res = await fetch(`${gatewayUrl}/dashboard/spent`);
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe('7');
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
  expect(await res.text()).toBe('<p data-status="429">rate limit exceeded</p>');
  expect(seen.map((request) => request.url)).toEqual([
    `${ERROR_PAGE_PATH}?status=429&message=rate+limit+exceeded`,
  ]);
});

it('falls back to its own error answer when the upstream has no page for the status', async () => {
  const res = await fetch(`${gatewayUrl}/dashboard/teapot`);
  expect(res.status).toBe(418);
  expect(await res.json()).toEqual({ ok: false, error: 'no page for this' });
});

it('answers 503 naming the upstream when it cannot be reached', async () => {
  const down = express();
  down.use(
    '/dashboard',
    reverseProxy({ baseUrl: 'http://127.0.0.1:9', connectTimeoutMs: 500, name: 'dashboard' }),
  );
  down.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    res
      .status(err instanceof AppError ? err.status : 500)
      .json({ error: err instanceof Error ? err.message : String(err) });
  });
  const server = createServer(down);
  const url = await listen(server);
  try {
    const res = await fetch(`${url}/dashboard`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'dashboard is unavailable' });
  } finally {
    await close(server);
  }
});
