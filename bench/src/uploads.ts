// Issue 5's benchmark: one 50 MB file PUT through the gateway to the uploads service, which streams
// it to object storage while it counts, hashes and sniffs it. Prints the throughput (MB/s, file size
// over the PUT's wall time) and the uploads service's resident memory before and at its peak during
// the stream (sampled from /proc every 10 ms, plus the kernel's own high-water mark VmHWM), on the
// fs adapter and on S3 (s3rver on loopback). The file is written to a temp file first and read from
// disk as a stream, so the bench process never holds it either.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UploadResponse, UploadSessionResponse } from '@svc/contracts';
import { startS3rver, startTestStack, type TestStack } from '@svc/testkit';
import { formatColumns } from './columns';

const FILE_BYTES = 50 * 1_000_000;
const ROUNDS = 3;
// A file four times larger, once per adapter: the peak must not grow with the file.
const LARGE_FILE_BYTES = 200 * 1_000_000;
// ms between two memory samples of the uploads process.
const SAMPLE_MS = 10;

/** A CSV of about `bytes` bytes, written in 1 MB chunks. */
async function writeCsv(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  const header = 'id,price,active,day,name\n';
  out.write(header);
  let written = header.length;
  let id = 0;
  while (written < bytes) {
    const lines: string[] = [];
    let chunk = 0;
    while (chunk < 1_000_000 && written + chunk < bytes) {
      id += 1;
      const line = `${id},${(id * 1.25).toFixed(2)},${id % 2 === 0},2026-01-${String((id % 28) + 1).padStart(2, '0')},Customer ${id % 997}\n`;
      lines.push(line);
      chunk += line.length;
    }
    const text = lines.join('');
    written += text.length;
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

/** Resident set size and its high-water mark of a process, in MB (Linux /proc). */
async function memoryOf(pid: number): Promise<{ rssMb: number; hwmMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

/** PUT of the file at `path` as a stream (Content-Length set, body never in memory). */
function putFile(
  url: string,
  token: string,
  path: string,
  size: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'text/csv',
        'content-length': String(size),
      },
    });
    request.on('response', (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }),
      );
    });
    request.on('error', reject);
    createReadStream(path).pipe(request);
  });
}

interface Round {
  seconds: number;
  mbPerSecond: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

async function oneRound(stack: TestStack, apiKey: string, path: string, size: number): Promise<Round> {
  const created = await stack.fetch('/api/capabilities/csv-profile/upload-session', {
    method: 'POST',
    apiKey,
    json: { input: { filename: 'bench.csv', content_type: 'text/csv', size_bytes: size } },
  });
  if (created.status !== 201) throw new Error(`session: ${created.status} ${created.text}`);
  const session = UploadSessionResponse.parse(created.json);
  const pid = stack.pid('uploads');
  if (pid === undefined) throw new Error('uploads is not running');
  const before = await memoryOf(pid);
  let peak = before.rssMb;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, (await memoryOf(pid)).rssMb);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  const started = process.hrtime.bigint();
  const answer = await putFile(
    `${stack.gatewayUrl}${new URL(session.upload_url).pathname}`,
    session.upload_token,
    path,
    size,
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  sampling = false;
  await sampler;
  if (answer.status !== 200) throw new Error(`PUT: ${answer.status} ${answer.body}`);
  const upload = UploadResponse.parse(JSON.parse(answer.body)).upload;
  if (upload.size_bytes !== size) throw new Error(`stored ${upload.size_bytes} bytes, sent ${size}`);
  const after = await memoryOf(pid);
  return {
    seconds,
    mbPerSecond: size / 1_000_000 / seconds,
    rssBeforeMb: before.rssMb,
    rssPeakMb: Math.max(peak, after.rssMb),
  };
}

interface BenchFile {
  path: string;
  size: number;
  rounds: number;
}

async function benchAdapter(
  label: string,
  env: Record<string, string>,
  files: readonly BenchFile[],
): Promise<string[][]> {
  const stack = await startTestStack({
    services: ['registry', 'uploads', 'gateway'],
    env: { LOG_LEVEL: 'warn', ...env },
  });
  try {
    const key = await stack.createApiKey({ scopes: ['uploads:write'], clientName: `bench-uploads-${label}` });
    const rows: string[][] = [];
    for (const { path, size, rounds } of files) {
      for (let round = 1; round <= rounds; round++) {
        const r = await oneRound(stack, key.apiKey, path, size);
        rows.push([
          `${label} ${(size / 1_000_000).toFixed(0)} MB #${round}`,
          r.seconds.toFixed(2),
          r.mbPerSecond.toFixed(1),
          r.rssBeforeMb.toFixed(0),
          r.rssPeakMb.toFixed(0),
          (r.rssPeakMb - r.rssBeforeMb).toFixed(1),
        ]);
      }
    }
    const pid = stack.pid('uploads');
    if (pid !== undefined) {
      const { hwmMb } = await memoryOf(pid);
      rows.push([`${label} VmHWM (whole life)`, '', '', '', hwmMb.toFixed(0), '']);
    }
    return rows;
  } finally {
    await stack.close();
  }
}

export async function benchUploads(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-uploads-'));
  try {
    const files: BenchFile[] = [];
    for (const [name, bytes, rounds] of [
      ['bench.csv', FILE_BYTES, ROUNDS],
      ['large.csv', LARGE_FILE_BYTES, 1],
    ] as const) {
      const path = join(dir, name);
      await writeCsv(path, bytes);
      files.push({ path, size: (await stat(path)).size, rounds });
    }
    console.log(
      `\nuploads: PUT of a ${FILE_BYTES / 1_000_000} MB CSV (${ROUNDS} rounds) and a ${LARGE_FILE_BYTES / 1_000_000} MB one through the gateway, per adapter`,
    );
    const rows = await benchAdapter('fs', {}, files);
    const s3 = await startS3rver();
    try {
      rows.push(...(await benchAdapter('s3 (s3rver)', s3.env, files)));
    } finally {
      await s3.close();
    }
    console.log(
      formatColumns(['adapter', 'seconds', 'MB/s', 'RSS before MB', 'RSS peak MB', 'peak − before MB'], rows),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
