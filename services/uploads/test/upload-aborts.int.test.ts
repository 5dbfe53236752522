import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { UploadSessionResponse } from '@svc/contracts';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import { pollUntil, startTestStack, type TestApiKey, type TestStack } from '@svc/testkit';
import {
  openRaw,
  parseAnswer,
  putHead,
  type RawConnection,
  type RawTarget,
  uploadsDataUrl,
} from './raw-client';

/**
 * Issue 13, findings 1 and 6, against the real processes (registry, uploads, gateway) on loopback:
 * - a client that hangs up at any phase of a PUT (inside the header block, right after it, mid-body,
 *   one byte short of the end, after the whole body) never ends the uploads process, keeps nothing
 *   in object storage and leaves the session to be PUT again with the same token — straight on the
 *   uploads service's internal server and through the gateway;
 * - a body that stalls (half sent, socket left open) is cut after UPLOAD_IDLE_TIMEOUT_MS with a 408
 *   `{ok:false, error}`, and the same token's retry succeeds while the stalled socket is still open.
 */

// ms: the stack's idle time, small so the stall test is quick; long enough that the abort phases
// that wait for the claim (a few database round trips, slow on a loaded machine) are not cut as
// idle first.
const IDLE_MS = 5_000;
// bytes: the size of the report (Content-Length: 2181, 1,000 bytes sent).
const SIZE = 2181;
const SENT_BEFORE_ABORT = 1000;

/** A CSV of exactly `size` bytes (text: valid UTF-8, so the content check passes). */
function csv(size: number, seed: string): Buffer {
  const header = `name,city,seed\n`;
  const row = `ada,bern,${seed}\n`;
  let text = header;
  while (text.length < size) text += row;
  return Buffer.from(`${text.slice(0, size - 1)}\n`, 'utf8');
}

let stack: TestStack;
let prisma: PrismaClient;
let key: TestApiKey;
let uploadsPid: number | undefined;
let gatewayPid: number | undefined;

function dataUrl(): string {
  return uploadsDataUrl(stack.logs('uploads'));
}

type Route = 'direct' | 'gateway';

function targetOf(route: Route, uploadId: string): RawTarget {
  return route === 'direct'
    ? { baseUrl: dataUrl(), path: `/internal/uploads/${uploadId}` }
    : { baseUrl: stack.gatewayUrl, path: `/api/capability-uploads/${uploadId}` };
}

interface Session {
  uploadId: string;
  token: string;
}

async function newSession(): Promise<Session> {
  const answer = await stack.fetch('/api/capabilities/csv-profile/upload-session', {
    method: 'POST',
    apiKey: key.apiKey,
    json: { input: { filename: 'people.csv', content_type: 'text/csv', size_bytes: SIZE } },
  });
  if (answer.status !== 201) throw new Error(`session: ${answer.status} ${answer.text}`);
  const body = UploadSessionResponse.parse(answer.json);
  return { uploadId: body.upload_id, token: body.upload_token };
}

async function sessionStatus(uploadId: string): Promise<string | undefined> {
  const row = await prisma.uploadSession.findUnique({ where: { id: uploadId } });
  return row?.status;
}

/** Every file under the stack's object store (relative paths), temp files included. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(stack.storageDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(stack.storageDir, path.join(entry.parentPath, entry.name)));
}

/** The whole body PUT with `fetch`; the status and JSON answer. */
async function honestPut(route: Route, session: Session, body: Buffer) {
  const target = targetOf(route, session.uploadId);
  const response = await fetch(`${target.baseUrl}${target.path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'text/csv' },
    body: body as Uint8Array<ArrayBuffer>,
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Where the client stops. `waitForClaim`: hang up only once the PUT holds its claim (the body is streaming). */
interface Phase {
  name: string;
  /** Bytes of the request written before hanging up (head = the whole header block). */
  write(head: Buffer, body: Buffer): Buffer[];
  waitForClaim?: boolean;
}

const PHASES: readonly Phase[] = [
  // Before the headers are read: the header block is cut short (no blank line yet).
  { name: 'inside the header block', write: (head) => [head.subarray(0, head.length - 30)] },
  { name: 'right after the headers', write: (head) => [head] },
  // The report: 1,000 of 2,181 bytes, then gone within milliseconds (before the claim).
  { name: 'early in the body', write: (head, body) => [head, body.subarray(0, SENT_BEFORE_ABORT)] },
  {
    name: 'mid-body, while streaming',
    write: (head, body) => [head, body.subarray(0, SENT_BEFORE_ABORT)],
    waitForClaim: true,
  },
  { name: 'one byte short, at once', write: (head, body) => [head, body.subarray(0, SIZE - 1)] },
  {
    name: 'one byte short, while streaming',
    write: (head, body) => [head, body.subarray(0, SIZE - 1)],
    waitForClaim: true,
  },
];

async function abortAt(route: Route, session: Session, phase: Phase, body: Buffer): Promise<void> {
  const target = targetOf(route, session.uploadId);
  const connection: RawConnection = await openRaw(target);
  const head = putHead(target, session.token, 'text/csv', SIZE);
  for (const bytes of phase.write(head, body)) await connection.write(bytes);
  if (phase.waitForClaim) {
    await pollUntil(async () => (await sessionStatus(session.uploadId)) === 'uploading', {
      what: `${phase.name}: the PUT claims the session`,
    });
  }
  connection.hangUp();
}

beforeAll(async () => {
  stack = await startTestStack({
    services: ['registry', 'uploads', 'gateway'],
    env: { UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS), RATE_LIMIT_MULTIPLIER: '100' },
    // ms: three processes compiling at once on a shared machine.
    startTimeoutMs: 120_000,
  });
  prisma = createPrismaClient(stack.databaseUrl);
  key = await stack.createApiKey({ scopes: ['uploads:write'], clientName: 'upload-aborts' });
  uploadsPid = stack.pid('uploads');
  gatewayPid = stack.pid('gateway');
}, 180_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await stack?.close();
});

describe('a PUT aborted at any phase (issue 13, finding 1)', () => {
  it('never ends the uploads process, keeps nothing, and the same token can PUT again', async () => {
    const aborted: { route: Route; phase: string; session: Session }[] = [];
    // Every phase on both routes, twice: 24 aborts in a row.
    for (let round = 0; round < 2; round += 1) {
      for (const route of ['direct', 'gateway'] as const) {
        for (const phase of PHASES) {
          const session = await newSession();
          await abortAt(route, session, phase, csv(SIZE, `abort${round}`));
          aborted.push({ route, phase: phase.name, session });
        }
      }
    }

    // Nothing of an aborted PUT is kept: every claim is released, no object and no temp file.
    for (const { session, route, phase } of aborted) {
      await pollUntil(async () => (await sessionStatus(session.uploadId)) === 'pending', {
        what: `${route}, ${phase}: claim released`,
      });
    }
    await pollUntil(async () => (await storedFiles()).length === 0, {
      what: 'no object and no temp file left',
    });
    expect(stack.pid('uploads')).toBe(uploadsPid);
    expect(stack.pid('gateway')).toBe(gatewayPid);

    // The same token PUTs again, on the route it was aborted on.
    for (const { session, route } of aborted) {
      const body = csv(SIZE, session.uploadId);
      const answer = await honestPut(route, session, body);
      expect({ status: answer.status, ok: answer.json.ok }).toEqual({ status: 200, ok: true });
    }
    // And a fresh session uploads as usual.
    const fresh = await newSession();
    expect((await honestPut('gateway', fresh, csv(SIZE, 'fresh'))).status).toBe(200);
    expect(stack.pid('uploads')).toBe(uploadsPid);
  }, 180_000);

  it('survives a client that sends the whole body and leaves without reading the answer', async () => {
    const sessions: Session[] = [];
    for (const route of ['direct', 'gateway'] as const) {
      for (let i = 0; i < 3; i += 1) {
        const session = await newSession();
        const target = targetOf(route, session.uploadId);
        const connection = await openRaw(target);
        const head = putHead(target, session.token, 'text/csv', SIZE);
        await connection.write(Buffer.concat([head, csv(SIZE, 'whole')]));
        connection.hangUp();
        sessions.push(session);
      }
    }
    // Either outcome is consistent: stored and complete, or nothing kept and the token usable again.
    for (const session of sessions) {
      await pollUntil(
        async () => ['complete', 'pending'].includes((await sessionStatus(session.uploadId)) ?? ''),
        { what: 'the PUT settles' },
      );
      const status = await sessionStatus(session.uploadId);
      const files = await storedFiles();
      if (status === 'complete') expect(files).toContain(`uploads/${session.uploadId}`);
      else expect((await honestPut('direct', session, csv(SIZE, 'again'))).status).toBe(200);
    }
    await pollUntil(async () => (await storedFiles()).every((file) => !file.startsWith('.tmp/')), {
      what: 'no temp file left',
    });
    expect(stack.pid('uploads')).toBe(uploadsPid);
  }, 60_000);
});

describe('a stalled PUT (issue 13, finding 6)', () => {
  it.each(['direct', 'gateway'] as const)(
    '%s: is cut after UPLOAD_IDLE_TIMEOUT_MS with 408, keeps nothing, and the same token retries at once',
    async (route) => {
      const session = await newSession();
      const body = csv(SIZE, 'stalled');
      const target = targetOf(route, session.uploadId);
      const stalled = await openRaw(target);
      const head = putHead(target, session.token, 'text/csv', SIZE);
      await stalled.write(Buffer.concat([head, body.subarray(0, SIZE / 2)]));
      // No more bytes, socket left open: the server must answer on its own (bounded wait, not timed).
      await pollUntil(async () => parseAnswer(stalled.received()) !== null, {
        what: 'an answer to the stalled PUT',
        timeoutMs: IDLE_MS + 15_000,
      });
      const answer = parseAnswer(stalled.received());
      expect(answer?.status).toBe(408);
      expect(answer?.body).toEqual({ ok: false, error: expect.stringMatching(/no progress|idle/i) });
      expect(await sessionStatus(session.uploadId)).toBe('pending');
      expect(await storedFiles()).not.toContain(`uploads/${session.uploadId}`);
      expect((await storedFiles()).filter((file) => file.startsWith('.tmp/'))).toEqual([]);

      // The stalled connection is still open (or lingering): the retry does not wait for it.
      const retry = await honestPut(route, session, body);
      expect({ status: retry.status, ok: retry.json.ok }).toEqual({ status: 200, ok: true });
      stalled.hangUp();
      expect(stack.pid('uploads')).toBe(uploadsPid);
    },
    60_000,
  );
});
