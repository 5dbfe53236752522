import { ErrorResponse } from '@svc/contracts';
import { createLogger } from '@svc/log';
import { type HealthServer, type HttpServerHandle, listenHttp, startHealthServer } from '@svc/service-kit';
import express from 'express';
import { type RawAnswer, rawExchange } from './support/raw-socket';

/**
 * Issue 13 finding 7: requests Node's HTTP parser refuses got Node's own empty 400/431. Every HTTP
 * server of the platform is made by listenHttp (the gateway's public port, the uploads service's
 * internal one) or startHealthServer (every service's health port); both now answer these with a
 * complete HTTP/1.1 response whose body is `{ok:false, error}`. Raw sockets (node:net): no HTTP
 * client would send these requests.
 */

const LONG_URL = `/${'a'.repeat(100_000)}`;

const MALFORMED: ReadonlyArray<readonly [string, string, number, string]> = [
  ['a malformed request line', 'THIS IS NOT HTTP\r\n\r\n', 400, 'malformed request: unknown method'],
  [
    'a ~100 KB URL',
    `GET ${LONG_URL} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    431,
    'request line and headers too large: at most 16384 bytes in all',
  ],
  [
    'chunked plus Content-Length',
    'POST /ping HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
    'malformed request: invalid Transfer-Encoding, or sent together with Content-Length',
  ],
  [
    'an invalid character in a header value',
    'GET /ping HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\n\r\n',
    400,
    'malformed request: invalid character in a header',
  ],
  [
    'an invalid character in a header name',
    'GET /ping HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n',
    400,
    'malformed request: invalid character in a header',
  ],
];

function expectErrorAnswer(answer: RawAnswer, status: number, message: string): void {
  expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({
    status,
    body: { ok: false, error: message },
  });
  expect(ErrorResponse.safeParse(JSON.parse(answer.body)).success).toBe(true);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  expect(answer.headers.connection).toBe('close');
}

describe('HTTP framing errors answered as {ok:false, error}', () => {
  let http: HttpServerHandle;
  let health: HealthServer;

  beforeAll(async () => {
    const app = express();
    app.all('/ping', (_req, res) => {
      res.json({ ok: true });
    });
    http = await listenHttp(app, {
      port: 0,
      graceMs: 1_000,
      requestTimeoutMs: 10_000,
      name: 'test',
      // As the gateway passes them (main.ts): every answer carries the contract version (spec §9.5).
      clientErrorHeaders: { 'Svc-Contract-Version': '2026-08-restoration-local' },
    });
    health = await startHealthServer({
      service: 'test',
      port: 0,
      host: '127.0.0.1',
      checks: {},
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
  });

  afterAll(async () => {
    await http?.close();
    await health?.close();
  });

  it.each(MALFORMED)('listenHttp answers %s', async (_what, request, status, message) => {
    const answer = await rawExchange(http.port, request);
    expectErrorAnswer(answer, status, message);
    expect(answer.headers['svc-contract-version']).toBe('2026-08-restoration-local');
  });

  it.each(MALFORMED)('the health server answers %s', async (_what, request, status, message) => {
    expectErrorAnswer(await rawExchange(health.port, request.replace('/ping', '/healthz')), status, message);
  });

  it('still serves a well-formed request on the same servers', async () => {
    const ok = await rawExchange(
      http.port,
      'GET /ping HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect({ status: ok.status, body: JSON.parse(ok.body) }).toEqual({ status: 200, body: { ok: true } });
    const live = await rawExchange(
      health.port,
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(live.status).toBe(200);
  });
});
