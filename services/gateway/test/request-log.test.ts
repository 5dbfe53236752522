import type { Server } from 'node:http';
import { memoryLogger } from '@svc/log';
import { pollUntil } from '@svc/testkit';
import express from 'express';
import type { GatewayResponse } from '../src/locals';
import { requestLog } from '../src/middleware/request-log';
import { rawRequest } from './support/raw-http';

/**
 * The gateway's request log (one line per request) on a real loopback server: the level says whose
 * problem it is. A client that hangs up is the client's business (warn, as the uploads service logs
 * it), not an error of ours; a 5xx stays an error, also when the client left meanwhile.
 */

const PINO_LEVEL = { info: 30, warn: 40, error: 50 } as const;

describe('requestLog levels', () => {
  const log = memoryLogger('gateway');
  let server: Server;
  let baseUrl: string;
  /** Paths whose request reached its handler. */
  const arrived = new Set<string>();

  beforeAll(async () => {
    const app = express();
    app.use(requestLog(log.logger));
    app.use((req, _res, next) => {
      arrived.add(req.path);
      next();
    });
    app.get('/ok', (_req, res) => void res.json({ ok: true }));
    // Never answers: only the client's hang-up ends these.
    app.get('/hang', () => undefined);
    app.get('/broke-then-hang', (_req, res: GatewayResponse) => {
      res.locals.failure = new Error('upstream broke');
      res.status(500);
    });
    app.get('/boom', (_req, res: GatewayResponse) => {
      res.locals.failure = new Error('boom');
      res.status(500).json({ ok: false, error: 'internal error' });
    });
    app.get('/down', (_req, res) => void res.status(503).json({ ok: false, error: 'down' }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('not listening on a port');
    baseUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const lineFor = (path: string) =>
    pollUntil(() => log.lines().find((line) => JSON.stringify(line.req).includes(`"${path}"`)), {
      what: `a log line for ${path}`,
    });
  const hangUpOn = async (path: string) => {
    const exchange = rawRequest(`${baseUrl}${path}`, 'GET', {});
    exchange.request.end();
    // The server holds the request; then the client leaves.
    await pollUntil(() => arrived.has(path), { what: `${path} reached its handler` });
    exchange.request.destroy();
  };

  it('a client that hangs up before the answer is a warning, not an error', async () => {
    await hangUpOn('/hang');
    const line = await lineFor('/hang');
    expect(line).toMatchObject({
      level: PINO_LEVEL.warn,
      msg: 'request aborted before the response was complete',
      req: { method: 'GET', url: '/hang' },
    });
    // No error object (and no stack) for what is not a failure.
    expect(line.err).toBeUndefined();
  });

  it('a failure of ours stays an error, also when the client then hangs up', async () => {
    await hangUpOn('/broke-then-hang');
    expect(await lineFor('/broke-then-hang')).toMatchObject({
      level: PINO_LEVEL.error,
      msg: 'request failed with 500',
      err: { message: 'upstream broke' },
    });
  });

  it('keeps the other levels: 5xx error, 503 warn, the rest info', async () => {
    for (const path of ['/ok', '/boom', '/down']) await fetch(`${baseUrl}${path}`);
    expect(await lineFor('/ok')).toMatchObject({ level: PINO_LEVEL.info, msg: 'request completed' });
    expect(await lineFor('/boom')).toMatchObject({
      level: PINO_LEVEL.error,
      msg: 'request failed with 500',
      err: { message: 'boom' },
    });
    expect(await lineFor('/down')).toMatchObject({ level: PINO_LEVEL.warn, msg: 'request failed with 503' });
  });
});
