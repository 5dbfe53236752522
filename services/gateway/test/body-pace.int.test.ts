import { gzipSync } from 'node:zlib';
import { ErrorResponse, UploadResponse, UploadSessionResponse } from '@svc/contracts';
import { startTestStack, type TestApiKey, type TestStack } from '@svc/testkit';
import { slowBodyMessage } from '../src/middleware/body-rate';
import { drip, piecesOf } from './support/drip-socket';

/**
 * Issue 23 item 15 against the real processes (registry, uploads, gateway) on loopback, where the
 * gateway runs as in production (not in jest's module sandbox, which wraps Node's own errors
 * differently): a JSON body that drips is cut with 408 and its connection closed; a gzip body that
 * does not decompress is 400 in our words, not zlib's; and an upload PUT slower than the gateway's
 * pace but within the uploads service's own idle time completes through the gateway.
 */

// The gateway's body rule, short so each case takes about a second (decisions I7).
const RULE = { graceMs: 300, minBytesPerSecond: 100 };
// ms: the uploads service's own idle time for a PUT body (decisions U10), well above the pauses below.
const UPLOAD_IDLE_MS = 3_000;
const SESSION_PATH = '/api/capabilities/csv-profile/upload-session';

let stack: TestStack;
let key: TestApiKey;
let port: number;

beforeAll(async () => {
  stack = await startTestStack({
    services: ['registry', 'uploads', 'gateway'],
    env: {
      BODY_GRACE_MS: String(RULE.graceMs),
      BODY_MIN_BYTES_PER_SECOND: String(RULE.minBytesPerSecond),
      UPLOAD_IDLE_TIMEOUT_MS: String(UPLOAD_IDLE_MS),
    },
    // ms: three processes compiling at once on a shared machine.
    startTimeoutMs: 120_000,
  });
  key = await stack.createApiKey({ scopes: ['uploads:write'], clientName: 'body-pace' });
  port = Number(new URL(stack.gatewayUrl).port);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

function sessionBody(size: number): string {
  return JSON.stringify({ input: { filename: 'people.csv', content_type: 'text/csv', size_bytes: size } });
}

it('cuts a JSON body that drips one byte at a time: 408 {ok:false, error}, Connection: close, closed', async () => {
  const body = sessionBody(100);
  const outcome = await drip(
    port,
    {
      method: 'POST',
      path: SESSION_PATH,
      headers: { Authorization: `Bearer ${key.apiKey}`, 'Content-Type': 'application/json' },
      pieces: piecesOf(body, 1),
      intervalMs: 50,
    },
    // ms: the whole body would take over 4 s at this pace.
    4_000,
  );
  expect(outcome.answer?.status).toBe(408);
  expect(outcome.answer?.headers.connection).toBe('close');
  expect(ErrorResponse.parse(JSON.parse(outcome.answer?.body ?? ''))).toEqual({
    ok: false,
    error: slowBodyMessage(RULE),
  });
  expect(outcome.piecesSent).toBeLessThan(body.length);
});

it("answers a gzip body that does not decompress 400 in our words, not zlib's", async () => {
  const send = (body: Uint8Array) =>
    fetch(`${stack.gatewayUrl}${SESSION_PATH}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.apiKey}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: body as Uint8Array<ArrayBuffer>,
    });
  const gzipped = gzipSync(sessionBody(100));
  expect((await send(gzipped)).status).toBe(201);
  for (const corrupt of [Buffer.from(sessionBody(100)), gzipped.subarray(0, gzipped.length - 6)]) {
    const answer = await send(corrupt);
    expect(answer.status).toBe(400);
    expect(ErrorResponse.parse(await answer.json()).error).toBe(
      'malformed request body: it does not decompress as its Content-Encoding says',
    );
  }
});

it("lets an upload PUT slower than the gateway's pace, within the uploads service's idle time, complete", async () => {
  const csv = Buffer.from(`name,city\n${'ada,bern\n'.repeat(22)}`, 'utf8'); // 208 bytes
  const created = await stack.fetch(SESSION_PATH, {
    method: 'POST',
    apiKey: key.apiKey,
    json: JSON.parse(sessionBody(csv.length)),
  });
  expect(created.status).toBe(201);
  const session = UploadSessionResponse.parse(created.json);
  // 20 bytes every 400 ms (50 bytes/s, half the gateway's 100): the gateway's rule would cut it
  // within a second (0.3 s + 0.2 s per piece falls behind 0.4 s per piece); each pause is far under
  // the uploads service's 3 s.
  const outcome = await drip(
    port,
    {
      method: 'PUT',
      path: `/api/capability-uploads/${session.upload_id}`,
      headers: { Authorization: `Bearer ${session.upload_token}`, 'Content-Type': 'text/csv' },
      pieces: piecesOf(csv, 20),
      intervalMs: 400,
    },
    10_000,
  );
  expect(outcome.answer?.status).toBe(200);
  expect(UploadResponse.parse(JSON.parse(outcome.answer?.body ?? '')).upload).toMatchObject({
    upload_id: session.upload_id,
    status: 'complete',
    size_bytes: csv.length,
  });
});
