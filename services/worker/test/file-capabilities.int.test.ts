import { randomUUID } from 'node:crypto';
import { enqueueJob, type RpcServer } from '@svc/bus';
import { CsvProfileResult, ImageThumbnailResult, PdfExtractTextResult } from '@svc/capabilities';
import type { ProducedArtifact, ResolvedFile } from '@svc/contracts';
import { createTestBus, pollUntil, type TestBus, testRedisUrl } from '@svc/testkit';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import {
  createTempStore,
  sha256,
  type TempStore,
} from '../../../packages/capabilities/test/support/temp-store';
import type { ReportRequest } from '../src/adapters/orchestrator-attempts';
import { FakeOrchestrator } from './support/fake-orchestrator';
import { startWorkerChild, type WorkerChild } from './support/worker-child';

// A real node worker process (tsx, as compose starts it) with the fs object store in a temp dir,
// the test playing the uploads service (it puts the files where uploads go) and the orchestrator
// (it enqueues the capability jobs with their resolved files and answers the claims and reports).
// Each new file capability completes with its artifacts present in storage under the reported keys
// with the reported SHA-256; an input the capability cannot read fails `invalid_input` at once.

let testBus: TestBus;
let temp: TempStore;
let worker: WorkerChild;
let orchestratorServer: RpcServer;
const orchestrator = new FakeOrchestrator();

beforeAll(async () => {
  temp = await createTempStore();
  testBus = createTestBus('filecap');
  orchestratorServer = orchestrator.serve(testBus.bus);
  await orchestratorServer.waitUntilReady();
  worker = await startWorkerChild({
    REDIS_URL: testRedisUrl(),
    BUS_PREFIX: testBus.prefix,
    HEALTH_PORT: '0',
    WORKER_RUNTIMES: 'node',
    WORKER_CONCURRENCY: '2',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '5000',
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: temp.dir,
  });
});

afterAll(async () => {
  await worker?.stop(5_000);
  await orchestratorServer?.close();
  await testBus?.close();
  await temp?.close();
});

function finalReport(runId: string, timeoutMs = 30_000): Promise<ReportRequest> {
  return pollUntil(
    () =>
      orchestrator.reports.find(
        (report) => report.run_id === runId && ['completed', 'failed', 'cancelled'].includes(report.event),
      ),
    {
      what: `a final report for ${runId}`,
      timeoutMs,
      intervalMs: 50,
      detail: () => worker.output.join('\n'),
    },
  );
}

async function completedReport(runId: string) {
  const report = await finalReport(runId);
  if (report.event !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(report)}`);
  return report;
}

/** Every reported artifact is in storage under `artifacts/<run>/<name>` with its size and SHA-256. */
async function expectStored(runId: string, artifacts: ProducedArtifact[] | undefined): Promise<Buffer[]> {
  expect(artifacts?.length).toBeGreaterThan(0);
  const contents: Buffer[] = [];
  for (const artifact of artifacts ?? []) {
    expect(artifact.storage_key).toBe(`artifacts/${runId}/${artifact.name}`);
    const stored = await temp.read(artifact.storage_key);
    expect(stored.length).toBe(artifact.size_bytes);
    expect(sha256(stored)).toBe(artifact.sha256);
    contents.push(stored);
  }
  return contents;
}

async function threePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['alpha page', 'beta page', 'gamma page']) {
    doc.addPage([300, 300]).drawText(text, { x: 30, y: 250, size: 14, font });
  }
  return Buffer.from(await doc.save());
}

async function enqueueRun(
  name: 'capability.pdf-extract-text' | 'capability.image-thumbnail' | 'capability.csv-profile',
  input: Record<string, unknown>,
  files: ResolvedFile[],
): Promise<string> {
  const runId = randomUUID();
  // Payloads as the orchestrator builds them: the parsed input (defaults applied) and the files.
  if (name === 'capability.pdf-extract-text') {
    const [file] = files;
    if (file === undefined) throw new Error('one file');
    await enqueueJob(
      testBus.bus,
      name,
      { run_id: runId, input: { upload_id: file.upload_id }, files },
      { jobId: `run-${runId}-1` },
    );
  } else if (name === 'capability.image-thumbnail') {
    await enqueueJob(
      testBus.bus,
      name,
      {
        run_id: runId,
        input: {
          upload_ids: files.map((f) => f.upload_id),
          sizes: [{ width: 64 }],
          format: 'png',
          fit: 'inside',
          ...input,
        },
        files,
      },
      { jobId: `run-${runId}-1` },
    );
  } else {
    const [file] = files;
    if (file === undefined) throw new Error('one file');
    await enqueueJob(
      testBus.bus,
      name,
      {
        run_id: runId,
        input: { upload_id: file.upload_id, delimiter: ',', has_header: true, sample_rows: 2, ...input },
        files,
      },
      { jobId: `run-${runId}-1` },
    );
  }
  return runId;
}

describe('file capabilities on a node worker', () => {
  it('pdf-extract-text: completes with the page texts and the text.txt artifact', async () => {
    const file = await temp.upload('report.pdf', 'application/pdf', await threePagePdf());
    const runId = await enqueueRun('capability.pdf-extract-text', {}, [file]);
    const report = await completedReport(runId);
    const result = PdfExtractTextResult.parse(report.result);
    expect(result.pages).toBe(3);
    expect(result.page_texts.map((page) => page.text.trim())).toEqual([
      'alpha page',
      'beta page',
      'gamma page',
    ]);
    const [text] = await expectStored(runId, report.artifacts);
    expect(
      text
        ?.toString('utf8')
        .split('\f')
        .map((page) => page.trim()),
    ).toEqual(['alpha page', 'beta page', 'gamma page']);
    expect(report.artifacts?.map((artifact) => [artifact.name, artifact.content_type])).toEqual([
      ['text.txt', 'text/plain'],
    ]);
  });

  it('image-thumbnail: completes with one PNG artifact per image', async () => {
    const png = await sharp({ create: { width: 128, height: 64, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const webp = await sharp({ create: { width: 50, height: 100, channels: 3, background: '#cc6633' } })
      .webp()
      .toBuffer();
    const files = [
      await temp.upload('wide.png', 'image/png', png),
      await temp.upload('tall.webp', 'image/webp', webp),
    ];
    const runId = await enqueueRun('capability.image-thumbnail', {}, files);
    const report = await completedReport(runId);
    const result = ImageThumbnailResult.parse(report.result);
    expect(result.thumbnails).toBe(2);
    expect(report.artifacts?.map((artifact) => artifact.name)).toEqual([
      'wide-1-64x32.png',
      'tall-2-50x100.png',
    ]);
    const stored = await expectStored(runId, report.artifacts);
    for (const bytes of stored) expect((await sharp(bytes).metadata()).format).toBe('png');
  });

  it('csv-profile: completes with the profile and no artifact', async () => {
    const file = await temp.upload(
      'data.csv',
      'text/csv',
      Buffer.from('\ufeffname,age\n"Doe, Jane",41\nBob,\n'),
    );
    const runId = await enqueueRun('capability.csv-profile', {}, [file]);
    const report = await completedReport(runId);
    const result = CsvProfileResult.parse(report.result);
    expect(result).toMatchObject({
      rows: 2,
      sample_rows: [
        ['Doe, Jane', '41'],
        ['Bob', ''],
      ],
    });
    expect(result.columns.map((column) => [column.name, column.type, column.nulls])).toEqual([
      ['name', 'string', 0],
      ['age', 'integer', 1],
    ]);
    expect(report.artifacts).toBeUndefined();
  });

  it('a file the capability cannot read fails invalid_input on the first attempt, with no retry', async () => {
    const file = await temp.upload('broken.csv', 'text/csv', Buffer.from('a,b\n1,"never closed\n'));
    const runId = await enqueueRun('capability.csv-profile', {}, [file]);
    const report = await finalReport(runId);
    expect(report).toMatchObject({
      event: 'failed',
      attempt: 1,
      error: {
        code: 'invalid_input',
        message:
          'csv-profile: the CSV is malformed at line 2: a quoted field is never closed (an opening " without its closing ") (record 2, counting the header; it starts after line 1)',
      },
    });
    expect(orchestrator.reportsOf(runId).some((r) => r.event === 'retrying')).toBe(false);
  });

  it("a truncated PNG fails with our words, never libvips' own lines (issue 13); those stay in the log", async () => {
    const whole = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#118844' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const file = await temp.upload('cut.png', 'image/png', whole.subarray(0, Math.floor(whole.length / 2)));
    const runId = await enqueueRun('capability.image-thumbnail', {}, [file]);
    const report = await finalReport(runId);
    expect(report).toMatchObject({
      event: 'failed',
      error: {
        code: 'invalid_input',
        message:
          'image-thumbnail: image 1 (cut.png): the image data is damaged or incomplete and cannot be decoded; upload the whole, undamaged file',
      },
    });
    const message = report.event === 'failed' ? report.error.message : '';
    expect(message).not.toMatch(/vips|libpng|\n/i);
    // The library's own words are kept for operators: on the worker's log line of the failed run
    // (written around the report, so it may reach this process's pipe just after it).
    const logged = await pollUntil(
      () => worker.output.find((line) => line.includes(runId) && line.includes('"run failed"')),
      { what: "the worker's log line of the failed run", timeoutMs: 5_000 },
    );
    expect(logged).toMatch(/"detail":"[^"]*(png|vips)/i);
  });

  it('a damaged PDF and an unreadable CSV fail with our words only', async () => {
    const pdf = await temp.upload('cut.pdf', 'application/pdf', (await threePagePdf()).subarray(0, 200));
    const csv = await temp.upload('bad.csv', 'text/csv', Buffer.from('a,b\n1,"x"y\n'));
    const pdfReport = await finalReport(await enqueueRun('capability.pdf-extract-text', {}, [pdf]));
    const csvReport = await finalReport(await enqueueRun('capability.csv-profile', {}, [csv]));
    expect(pdfReport).toMatchObject({
      event: 'failed',
      error: {
        code: 'invalid_input',
        message: 'pdf-extract-text: the file is not a readable PDF (damaged or not a PDF)',
      },
    });
    expect(csvReport).toMatchObject({
      event: 'failed',
      error: {
        code: 'invalid_input',
        message:
          'csv-profile: the CSV is malformed at line 2: a quoted field has characters after its closing " (write a " inside a quoted field as "") (record 2, counting the header; it starts after line 1)',
      },
    });
  });
});
