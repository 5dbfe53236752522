import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { pollUntil, sleep } from '@svc/testkit';
import { BodyIdleError, ClientAbortedError } from '../src/domain/body-errors';
import { type RequestBody, requestBody } from '../src/handlers/request-body';
import { openRaw, putHead, type RawTarget } from './raw-client';

/**
 * requestBody (handlers/request-body.ts) on a real HTTP server on loopback: its stream carries the
 * client's hang-up as an error even while nobody reads it yet (no uncaught 'error' event), errors
 * with BodyIdleError when the client stalls, and does not when only our side is not reading.
 */

// ms: small, so the idle cases are quick; the waits below are bounded, not asserted.
const IDLE_MS = 300;

let server: Server;
let target: RawTarget;
let received: (body: RequestBody, req: IncomingMessage) => void = () => undefined;

beforeAll(async () => {
  server = createServer((req) => received(requestBody(req, { idleTimeoutMs: IDLE_MS }), req));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  target = { baseUrl: `http://127.0.0.1:${port}`, path: '/upload' };
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

/** The next request's body, as the server saw it. */
function nextBody(): Promise<RequestBody> {
  return new Promise((resolve) => {
    received = (body) => resolve(body);
  });
}

/** Reads `stream` to its end; the bytes, or the error it failed with. */
async function drain(stream: Readable): Promise<{ bytes: number } | { error: unknown }> {
  let bytes = 0;
  try {
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    return { bytes };
  } catch (error) {
    return { error };
  }
}

describe('requestBody', () => {
  it('keeps a hang-up before anyone reads the body as the stream error, not an uncaught one', async () => {
    const arrived = nextBody();
    const client = await openRaw(target);
    await client.write(Buffer.concat([putHead(target, 'upl_x', 'text/csv', 2181), Buffer.alloc(1000, 97)]));
    const body = await arrived;
    client.hangUp();
    // Nobody reads the stream while the domain would still check the session.
    await pollUntil(() => body.stream.errored !== null, { what: 'the stream error' });
    expect(body.stream.errored).toBeInstanceOf(ClientAbortedError);
    // A consumer that comes later gets the same error.
    const read = await drain(body.stream);
    expect(read).toEqual({ error: expect.any(ClientAbortedError) });
  });

  it('errors with BodyIdleError when the client stops sending, socket open', async () => {
    const arrived = nextBody();
    const client = await openRaw(target);
    await client.write(Buffer.concat([putHead(target, 'upl_x', 'text/csv', 2181), Buffer.alloc(1000, 97)]));
    const body = await arrived;
    const read = await drain(body.stream);
    expect(read).toEqual({ error: expect.any(BodyIdleError) });
    expect(body.complete()).toBe(false);
    client.hangUp();
  });

  it('does not count the time the client is held back by a consumer that is not reading', async () => {
    const size = 4 * 1024 * 1024; // bytes: far more than the stream's buffers, so the client is held back
    const arrived = nextBody();
    const client = await openRaw(target);
    const sending = client.write(
      Buffer.concat([putHead(target, 'upl_x', 'text/csv', size), Buffer.alloc(size, 97)]),
    );
    const body = await arrived;
    // Our side does not read for several idle periods (a slow session check, slow storage).
    await sleep(IDLE_MS * 4);
    expect(body.stream.errored).toBeNull();
    const read = await drain(body.stream);
    expect(read).toEqual({ bytes: size });
    await sending;
    client.hangUp();
  });
});
