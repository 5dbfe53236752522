import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { pollUntil } from '@svc/testkit';
import { type Harness, newClientId, rawRequest, startHarness } from './harness';

// A PUT that is still streaming when its claim turns stale (UPLOAD_PUT_TIMEOUT_MS) must give up
// before another PUT may take the claim over: else the late one writes its bytes over the upload the
// other completed, and the stored bytes no longer have the SHA-256 (and facts) the upload shows.

const PUT_TIMEOUT_MS = 1_500;

let h: Harness;
const client = newClientId();

beforeAll(async () => {
  h = await startHarness({ putTimeoutMs: PUT_TIMEOUT_MS });
});

afterAll(async () => {
  await h?.close();
});

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Two CSV bodies of the same size with different bytes. */
function csvBodies(): [Buffer, Buffer] {
  return [Buffer.from('name,city\nada,bern\n'.repeat(200)), Buffer.from('name,city\nbob,genf\n'.repeat(200))];
}

/**
 * A PUT whose body is sent in two halves: the second only once `between` resolved. Resolves, once
 * `between` has too, with the status, or 0 when the server closed the connection before answering.
 */
async function putInTwoHalves(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  between: () => Promise<void>,
): Promise<number> {
  let betweenDone: Promise<void> = Promise.resolve();
  const status = await new Promise<number>((resolve) => {
    let settled = false;
    const settle = (status: number) => {
      if (settled) return;
      settled = true;
      resolve(status);
    };
    const req = httpRequest(url, { method: 'PUT', headers }, (res) => {
      res.resume();
      res.on('end', () => settle(res.statusCode ?? 0));
      res.on('error', () => settle(res.statusCode ?? 0));
    });
    req.on('error', () => settle(0));
    const half = Math.floor(body.length / 2);
    req.write(body.subarray(0, half));
    betweenDone = between().then(
      () => {
        if (!req.destroyed) req.end(body.subarray(half));
      },
      (err: unknown) => {
        req.destroy();
        throw err;
      },
    );
  });
  await betweenDone;
  return status;
}

async function storedBytes(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await h.store.get(key)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('PUT deadline (UPLOAD_PUT_TIMEOUT_MS)', () => {
  it('gives up a PUT before its claim can be taken over, so a late body never replaces a complete upload', async () => {
    const [late, winner] = csvBodies();
    const { uploadId, token } = await h.session(client, 'csv-profile', {
      filename: 'people.csv',
      content_type: 'text/csv',
      size_bytes: late.length,
    });
    const url = `${h.server.url}/internal/uploads/${uploadId}`;
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'text/csv',
      'content-length': String(late.length),
    };
    let winnerStatus = 0;
    const lateStatus = await putInTwoHalves(url, headers, late, async () => {
      await pollUntil(async () => {
        const row = await h.db.prisma.uploadSession.findUnique({ where: { id: uploadId } });
        return row?.status === 'uploading';
      });
      const row = await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id: uploadId } });
      const claimedAt = row.claimedAt?.getTime() ?? Date.now();
      // Past the point where the first claim is stale: a second PUT may claim the session now.
      await new Promise((done) =>
        setTimeout(done, Math.max(0, claimedAt + PUT_TIMEOUT_MS + 200 - Date.now())),
      );
      const second = await rawRequest(url, { method: 'PUT', headers, chunks: [winner] });
      winnerStatus = second.status;
    });

    expect(winnerStatus).toBe(200);
    expect(lateStatus).not.toBe(200);
    const row = await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id: uploadId } });
    expect(row.status).toBe('complete');
    expect(row.sha256).toBe(sha256(winner));
    // Give a late PUT the time to finish its write, then read what is stored.
    await new Promise((done) => setTimeout(done, 300));
    const stored = await storedBytes(`uploads/${uploadId}`);
    expect(sha256(stored)).toBe(row.sha256);
  }, 15_000);

  it('answers 408 and releases the claim when the body is not complete by the deadline', async () => {
    const [body] = csvBodies();
    const { uploadId, token } = await h.session(client, 'csv-profile', {
      filename: 'slow.csv',
      content_type: 'text/csv',
      size_bytes: body.length,
    });
    const url = `${h.server.url}/internal/uploads/${uploadId}`;
    const answer = await rawRequest(url, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'text/csv',
        'content-length': String(body.length),
      },
      chunks: [body.subarray(0, 100)],
      // Never sends the rest: the server gives up first.
      beforeEnd: () => new Promise((done) => setTimeout(done, PUT_TIMEOUT_MS + 500)),
    });
    expect(answer.status).toBe(408);
    expect(answer.json().error).toMatch(/^the body did not arrive within/);
    const row = await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id: uploadId } });
    expect(row.status).toBe('pending');
    expect(await h.store.stat(`uploads/${uploadId}`)).toBeNull();
  }, 15_000);
});
