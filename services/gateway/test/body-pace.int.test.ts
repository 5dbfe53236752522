import { defineOperation, UploadResponse, UploadSessionResponse } from '@svc/contracts';
import { z } from 'zod';
import { slowBodyMessage } from '../src/middleware/body-rate';
import { route } from '../src/routing/route';
import { type AppHarness, startAppHarness } from './support/app-harness';
import { drip, piecesOf } from './support/drip-socket';
import { post } from './support/run-requests';

/**
 * The minimum pace of a request body (issue 23 item 15, decisions I7) through the app factory on a
 * real socket, with a short rule (300 ms, then 1 s more per 100 bytes) so each case takes about a
 * second: a body that drips is answered 408 and its connection closed, whichever route it went to
 * and whether or not that route reads it; a slow body that keeps the pace is served; the upload PUT
 * keeps the uploads service's clock and is never cut by this rule.
 */

const RULE = { graceMs: 300, minBytesPerSecond: 100 };
// ms: how long a case may take before it counts as "never cut" (each dripped body would take 4 s or
// more in full, so a rule that does not cut fails here rather than passing late).
const CUT_WITHIN_MS = 3_000;

/** A public test operation (not part of the contracts) whose route reads a JSON body and echoes it. */
const echo = route(
  defineOperation({
    method: 'post',
    path: '/test/echo',
    operationId: 'testEcho',
    summary: 'Test only',
    tags: ['test'],
    auth: { kind: 'public' },
    rateLimit: 'reads',
    body: { schema: z.unknown() },
    success: {
      status: 200,
      description: 'Test only.',
      schema: z.object({ ok: z.literal(true), echoed: z.unknown() }),
    },
    errors: [],
  }),
  ({ body }) => ({ status: 200, body: { ok: true, echoed: body } }),
);

describe('the minimum pace of a request body (real sockets)', () => {
  let app: AppHarness;
  let port: number;

  beforeAll(async () => {
    app = await startAppHarness({
      bodyRate: RULE,
      extraRoutes: [echo],
    });
    port = Number(new URL(app.url).port);
  });
  afterAll(() => app.close());

  it('answers a body that drips one byte at a time 408 {ok:false, error} with Connection: close, and closes', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(90) }); // 101 bytes: 5 s at one byte per 50 ms
    const outcome = await drip(
      port,
      {
        method: 'POST',
        path: '/test/echo',
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'drip-1' },
        pieces: piecesOf(body, 1),
        intervalMs: 50,
      },
      CUT_WITHIN_MS + 1_000,
    );
    expect(outcome.answer?.status).toBe(408);
    expect(outcome.answer?.headers.connection).toBe('close');
    expect(outcome.answer?.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(outcome.answer?.body ?? '')).toEqual({ ok: false, error: slowBodyMessage(RULE) });
    expect(outcome.piecesSent).toBeLessThan(body.length);
    expect(outcome.closedAfterMs).toBeLessThan(CUT_WITHIN_MS);
    // One completion line at info: a slow client is not a failure of ours.
    const line = await app.waitForLog((l) => l.request_id === 'drip-1');
    expect(line).toMatchObject({ level: 30, res: { statusCode: 408 } }); // pino's info
  });

  it('serves a slow body that keeps the pace', async () => {
    // 600 bytes at 600 bytes/s: slower than any HTTP client, six times the minimum.
    const body = JSON.stringify({ text: 'y'.repeat(589) });
    const outcome = await drip(
      port,
      {
        method: 'POST',
        path: '/test/echo',
        headers: { 'Content-Type': 'application/json' },
        pieces: piecesOf(body, 60),
        intervalMs: 100,
      },
      CUT_WITHIN_MS + 1_000,
    );
    expect(outcome.answer?.status).toBe(200);
    expect(JSON.parse(outcome.answer?.body ?? '')).toEqual({ ok: true, echoed: { text: 'y'.repeat(589) } });
    expect(outcome.piecesSent).toBe(Math.ceil(body.length / 60));
  });

  it('closes the connection of a body that drips to a route that answered without reading it (401)', async () => {
    const outcome = await drip(
      port,
      {
        method: 'POST',
        path: '/api/capabilities/crt/run',
        headers: { 'Content-Type': 'application/json' },
        pieces: piecesOf(' '.repeat(100), 1),
        intervalMs: 50,
        // A client that keeps its connection: Node reads and drops the rest of the body after the 401.
        keepAlive: true,
      },
      CUT_WITHIN_MS + 1_000,
    );
    // Answered at once; Node would then read and drop the dripping rest for 5 s, and keep the
    // connection 5 s more (keep-alive).
    expect(outcome.answer?.status).toBe(401);
    expect(outcome.closedAfterMs).toBeLessThan(CUT_WITHIN_MS);
    expect(outcome.piecesSent).toBeLessThan(100);
  });

  it('answers a JSON-RPC body that drips to /mcp the same 408', async () => {
    const message = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const outcome = await drip(
      port,
      {
        method: 'POST',
        path: '/mcp',
        headers: {
          Authorization: `Bearer ${app.keys.plain}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        pieces: piecesOf(message, 1),
        intervalMs: 50,
      },
      CUT_WITHIN_MS + 1_000,
    );
    expect(outcome.answer?.status).toBe(408);
    expect(JSON.parse(outcome.answer?.body ?? '')).toEqual({ ok: false, error: slowBodyMessage(RULE) });
    expect(outcome.closedAfterMs).toBeLessThan(CUT_WITHIN_MS);
  });

  it('never cuts the upload PUT: slower than the pace, it streams to the uploads service and completes', async () => {
    const bytes = Buffer.from('name,amount\nalpha,1\nbeta,2\ngamma,3\ndelta,4\nepsilon,5\n');
    const created = await post(app, '/api/capabilities/csv-profile/upload-session', {
      apiKey: app.keys.uploader,
      body: { input: { filename: 'slow.csv', content_type: 'text/csv', size_bytes: bytes.length } },
    });
    expect(created.status).toBe(201);
    const session = UploadSessionResponse.parse(await created.json());
    const before = app.uploadsData.requests.length;
    // 4 bytes per 100 ms (40 bytes/s, under the 100 bytes/s of the rule) for about 1.2 s: the rule
    // would cut it after about half a second.
    const outcome = await drip(
      port,
      {
        method: 'PUT',
        path: `/api/capability-uploads/${session.upload_id}`,
        headers: { Authorization: `Bearer ${session.upload_token}`, 'Content-Type': 'text/csv' },
        pieces: piecesOf(bytes, 4),
        intervalMs: 100,
      },
      CUT_WITHIN_MS + 2_000,
    );
    expect(outcome.answer?.status).toBe(200);
    expect(UploadResponse.parse(JSON.parse(outcome.answer?.body ?? '')).upload.status).toBe('complete');
    expect(app.uploadsData.requests[before]).toMatchObject({ received: bytes.length, ended: true });
  });
});
