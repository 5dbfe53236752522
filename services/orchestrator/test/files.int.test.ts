import { randomUUID } from 'node:crypto';
import { type ProducedArtifact, Quote, type ResolvedFile } from '@svc/contracts';
import {
  ConflictError,
  NotFoundError,
  PaymentRequiredError,
  ServiceUnavailableError,
  ValidationError,
} from '@svc/errors';
import { runJobId } from '../src/domain/dispatch';
import { inputHash } from '../src/domain/request-hash';
import { FILE_RECORDS } from './fixtures/capability-records';
import { type FakeUploads, startFakeUploads } from './fixtures/fake-uploads';
import { csvFile, imageFile, pdfFile } from './fixtures/resolved-files';
import { type InProcessHarness, rejection, startInProcessHarness } from './harness';
import { sweepOnce } from './sweep-deps';

// The orchestrator's RPC handlers and report consumer run in this process, and so do the real
// handlers of the wallet (quotes, holds) and the registry, on the same bus of a private stack;
// PostgreSQL and Redis are real.
// `rpc.uploads` is answered by a stand-in on the same bus (fixtures/fake-uploads.ts), and the three
// file capabilities' records come from fixtures (the registry does not publish them yet).

let h: InProcessHarness;
let uploads: FakeUploads;

beforeAll(async () => {
  h = await startInProcessHarness({ records: FILE_RECORDS });
  uploads = await startFakeUploads(h.bus);
});

afterAll(async () => {
  await uploads?.close();
  await h?.close();
});

/** A complete upload of `clientId` for `slug`. */
function upload(clientId: string, slug: string, file: ResolvedFile): ResolvedFile {
  return uploads.add({ clientId, slug, status: 'complete', file });
}

/** The resolveFiles calls that named `uploadId`. */
function resolveCallsFor(uploadId: string) {
  return uploads.resolveCalls.filter((call) => call.upload_ids.includes(uploadId));
}

describe('orchestrator.quote with files', () => {
  it('prices pdf-extract-text by pages, csv-profile by started megabyte, image-thumbnail per image', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const pdf = upload(clientId, 'pdf-extract-text', pdfFile(7));
    const pdfQuote = Quote.parse(await h.quote(clientId, 'pdf-extract-text', { upload_id: pdf.upload_id }));
    expect(pdfQuote).toMatchObject({
      slug: 'pdf-extract-text',
      price_usd: '0.007',
      price_detail: { model: 'per_unit', unit: 'page', units: 7, unit_price_usd: '0.001' },
      wallet_clearance: { cleared: true },
    });
    // Bound to the parsed input, which names the upload (its bytes never change once complete).
    expect(await h.prisma.quote.findUniqueOrThrow({ where: { id: pdfQuote.quote_id } })).toMatchObject({
      priceMicros: 7_000n,
      inputHash: inputHash({ upload_id: pdf.upload_id }),
    });
    // A quote marks nothing: no run id went to the upload service.
    expect(resolveCallsFor(pdf.upload_id)).toEqual([
      { client_id: clientId, slug: 'pdf-extract-text', upload_ids: [pdf.upload_id] },
    ]);

    const csv = upload(clientId, 'csv-profile', csvFile(2_500_000));
    await expect(h.quote(clientId, 'csv-profile', { upload_id: csv.upload_id })).resolves.toMatchObject({
      price_usd: '0.003',
      price_detail: { unit: 'megabyte', units: 3 },
    });

    const images = [imageFile(), imageFile({ content_type: 'image/jpeg' }), imageFile()].map((file) =>
      upload(clientId, 'image-thumbnail', file),
    );
    await expect(
      h.quote(clientId, 'image-thumbnail', {
        upload_ids: images.map((file) => file.upload_id),
        sizes: [{ width: 64 }, { width: 256, height: 256 }],
      }),
    ).resolves.toMatchObject({ price_usd: '0.006', price_detail: { unit: 'image', units: 3 } });
  });

  it("passes each of the upload service's refusals through with its status", async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const other = await h.client({ balanceUsd: '1.00' });
    const theirs = upload(other, 'pdf-extract-text', pdfFile(1));
    const unknown = randomUUID();
    const pending = uploads.add({ clientId, slug: 'pdf-extract-text', status: 'pending', file: pdfFile(1) });
    const forCsv = upload(clientId, 'csv-profile', csvFile(10));

    const notFound = await rejection(h.quote(clientId, 'pdf-extract-text', { upload_id: unknown }));
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, message: `unknown upload_id: ${unknown}` });
    // Another client's upload: the very same answer.
    await expect(
      h.quote(clientId, 'pdf-extract-text', { upload_id: theirs.upload_id }),
    ).rejects.toMatchObject({
      status: 404,
      message: `unknown upload_id: ${theirs.upload_id}`,
    });
    const incomplete = await rejection(
      h.quote(clientId, 'pdf-extract-text', { upload_id: pending.upload_id }),
    );
    expect(incomplete).toBeInstanceOf(ConflictError);
    expect(incomplete).toMatchObject({
      message: `upload ${pending.upload_id} is not complete (status pending): PUT its bytes first`,
    });
    const wrongSlug = await rejection(h.quote(clientId, 'pdf-extract-text', { upload_id: forCsv.upload_id }));
    expect(wrongSlug).toBeInstanceOf(ValidationError);
    expect(wrongSlug).toMatchObject({
      message: `upload ${forCsv.upload_id} was made for capability csv-profile, not pdf-extract-text`,
    });
    // Nothing was quoted.
    expect(await h.prisma.quote.count({ where: { clientId } })).toBe(0);
  });

  it('422 for a content type the capability does not take; 503 when the upload service fails', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const gif = upload(clientId, 'image-thumbnail', imageFile({ content_type: 'image/gif' }));
    const wrongType = await rejection(h.quote(clientId, 'image-thumbnail', { upload_ids: [gif.upload_id] }));
    expect(wrongType).toBeInstanceOf(ValidationError);
    expect(wrongType).toMatchObject({
      message: `input: upload ${gif.upload_id} is image/gif; capability image-thumbnail takes image/jpeg, image/png, image/webp`,
    });

    // The upload service down: the RPC client's timeout becomes a 503.
    await uploads.server.close();
    try {
      const pdf = pdfFile(1);
      const down = await rejection(h.quote(clientId, 'pdf-extract-text', { upload_id: pdf.upload_id }));
      expect(down).toBeInstanceOf(ServiceUnavailableError);
    } finally {
      uploads = await startFakeUploads(h.bus);
    }
    expect(await h.prisma.quote.count({ where: { clientId } })).toBe(0);
  });
});

describe('orchestrator.startRun with files', () => {
  it('stores the files with the run, marks them used by it, and queues {run_id, input, files}', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const pdf = upload(clientId, 'pdf-extract-text', pdfFile(12));
    const input = { upload_id: pdf.upload_id };
    const quote = await h.quote(clientId, 'pdf-extract-text', input);
    const started = await h.run({
      client_id: clientId,
      slug: 'pdf-extract-text',
      input,
      quote_id: quote.quote_id,
      idempotency_key: `pdf-${randomUUID()}`,
    });
    const runId = started.run.run_id;
    expect(runId).toBe(quote.quote_id);
    expect(started.run).toMatchObject({ status: 'queued', price_usd: '0.012' });
    const row = await h.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(row.files).toEqual([pdf]);
    expect(row.priceMicros).toBe(12_000n);
    const job = await h.queue('capability.pdf-extract-text').getJob(runJobId(runId, 1));
    expect(job?.data).toEqual({ run_id: runId, input, files: [pdf] });
    // quote (checked), run (checked), then marked with the run id once the wallet held the price.
    expect(resolveCallsFor(pdf.upload_id)).toEqual([
      { client_id: clientId, slug: 'pdf-extract-text', upload_ids: [pdf.upload_id] },
      { client_id: clientId, slug: 'pdf-extract-text', upload_ids: [pdf.upload_id] },
      { client_id: clientId, slug: 'pdf-extract-text', upload_ids: [pdf.upload_id], run_id: runId },
    ]);
    expect(await h.wallet.runLedger({ client_id: clientId, run_id: runId })).toMatchObject({
      held_usd: '0.012',
    });
  });

  it('the dispatcher hands a file run over again from its stored row, with its files', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const images = [imageFile(), imageFile()].map((file) => upload(clientId, 'image-thumbnail', file));
    const input = { upload_ids: images.map((file) => file.upload_id) };
    const quote = await h.quote(clientId, 'image-thumbnail', input);
    const { run } = await h.run({
      client_id: clientId,
      slug: 'image-thumbnail',
      input,
      quote_id: quote.quote_id,
      idempotency_key: `img-${randomUUID()}`,
    });
    const queue = h.queue('capability.image-thumbnail');
    // As if the job was lost with Redis.
    await (await queue.getJob(runJobId(run.run_id, 1)))?.remove();
    const swept = await sweepOnce(h);
    expect(swept.finished).not.toContain(run.run_id);
    expect(swept.handedOver).toContain(run.run_id);
    expect((await queue.getJob(runJobId(run.run_id, 2)))?.data).toEqual({
      run_id: run.run_id,
      input: { ...input, sizes: [{ width: 256 }], format: 'webp', fit: 'inside' },
      files: images,
    });
  });

  it('the upload service failing when the files are marked: 503 naming it; the dispatcher finishes the run', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const pdf = upload(clientId, 'pdf-extract-text', pdfFile(3));
    const input = { upload_id: pdf.upload_id };
    const quote = await h.quote(clientId, 'pdf-extract-text', input);
    const key = `mark-${randomUUID()}`;
    // The files are checked before the run is recorded; the service fails when they are marked.
    uploads.failMarks(1);
    const err = await rejection(
      h.run({
        client_id: clientId,
        slug: 'pdf-extract-text',
        input,
        quote_id: quote.quote_id,
        idempotency_key: key,
      }),
    );
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err).toMatchObject({
      message: expect.stringMatching(
        new RegExp(
          `^uploads service .*; run ${quote.quote_id} was recorded but its hold is not confirmed yet: retry with the same Idempotency-Key$`,
        ),
      ),
    });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: quote.quote_id } })).toMatchObject({
      holdPending: true,
    });

    const swept = await sweepOnce(h);
    expect(swept.confirmed).toContain(quote.quote_id);
    expect(resolveCallsFor(pdf.upload_id).at(-1)).toEqual({
      client_id: clientId,
      slug: 'pdf-extract-text',
      upload_ids: [pdf.upload_id],
      run_id: quote.quote_id,
    });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: quote.quote_id } })).toMatchObject({
      holdPending: false,
      status: 'queued',
      jobId: runJobId(quote.quote_id, 1),
    });
    expect(await h.queue('capability.pdf-extract-text').getJob(runJobId(quote.quote_id, 1))).toBeDefined();
    // One hold, however often it was asked for.
    expect(await h.prisma.ledgerEntry.count({ where: { runId: quote.quote_id, kind: 'hold' } })).toBe(1);
  });

  it('an upload refused when it is marked (after the hold): no run, and the hold is given back first', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const pdf = upload(clientId, 'pdf-extract-text', pdfFile(2));
    const input = { upload_id: pdf.upload_id };
    const quote = await h.quote(clientId, 'pdf-extract-text', input);
    // Checked fine before the run is recorded; expired by the time it is marked (after the hold).
    uploads.failMarks(1, new ConflictError(`upload ${pdf.upload_id} expired; upload it again`));
    const err = await rejection(
      h.run({
        client_id: clientId,
        slug: 'pdf-extract-text',
        input,
        quote_id: quote.quote_id,
        idempotency_key: `mark-refused-${randomUUID()}`,
      }),
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect(await h.prisma.run.findUnique({ where: { id: quote.quote_id } })).toBeNull();
    const lines = await h.prisma.ledgerEntry.findMany({ where: { runId: quote.quote_id } });
    expect(lines.map((line) => line.kind).sort()).toEqual(['hold', 'release']);
  });

  it('a refused run marks nothing: no quote_id (422), not enough money (402), a resolve error', async () => {
    const clientId = await h.client({ balanceUsd: '0.005' });
    const pdf = upload(clientId, 'pdf-extract-text', pdfFile(10));
    const input = { upload_id: pdf.upload_id };
    const unquoted = await rejection(
      h.run({ client_id: clientId, slug: 'pdf-extract-text', input, idempotency_key: `n-${randomUUID()}` }),
    );
    expect(unquoted).toBeInstanceOf(ValidationError);
    expect(unquoted).toMatchObject({
      message: expect.stringMatching(/^quote_id is required for paid capabilities/),
    });

    // 0.010 USD for 10 pages; the balance is 0.005.
    const quote = await h.quote(clientId, 'pdf-extract-text', input);
    expect(quote).toMatchObject({ price_usd: '0.01', wallet_clearance: { cleared: false } });
    const broke = await rejection(
      h.run({
        client_id: clientId,
        slug: 'pdf-extract-text',
        input,
        quote_id: quote.quote_id,
        idempotency_key: `b-${randomUUID()}`,
      }),
    );
    expect(broke).toBeInstanceOf(PaymentRequiredError);

    uploads.uploads.set(pdf.upload_id, { clientId, slug: 'pdf-extract-text', status: 'expired', file: pdf });
    const expired = await rejection(
      h.run({
        client_id: clientId,
        slug: 'pdf-extract-text',
        input,
        quote_id: quote.quote_id,
        idempotency_key: `e-${randomUUID()}`,
      }),
    );
    expect(expired).toBeInstanceOf(ConflictError);
    expect(expired).toMatchObject({ message: `upload ${pdf.upload_id} expired; upload it again` });

    expect(resolveCallsFor(pdf.upload_id).filter((call) => call.run_id !== undefined)).toEqual([]);
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(0);
  });

  it('a replay answers the stored run without asking the upload service again', async () => {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const csv = upload(clientId, 'csv-profile', csvFile(100));
    const input = { upload_id: csv.upload_id };
    const quote = await h.quote(clientId, 'csv-profile', input);
    const request = {
      client_id: clientId,
      slug: 'csv-profile',
      input,
      quote_id: quote.quote_id,
      idempotency_key: `csv-${randomUUID()}`,
    };
    const first = await h.run(request);
    const calls = resolveCallsFor(csv.upload_id).length;
    // The upload has expired since: the replay still answers (it is the run already made).
    uploads.uploads.set(csv.upload_id, { clientId, slug: 'csv-profile', status: 'expired', file: csv });
    const again = await h.run(request);
    expect(again).toMatchObject({ replay: true, run: { run_id: first.run.run_id } });
    expect(resolveCallsFor(csv.upload_id)).toHaveLength(calls);
  });
});

describe('orchestrator.reportRun with artifacts', () => {
  const at = (second: number) => `2026-11-21T12:00:${String(second).padStart(2, '0')}.000Z`;

  /** A queued pdf-extract-text run of a fresh client, claimed by a worker (attempt 1 of job run-<id>-1). */
  async function runningPdfRun() {
    const clientId = await h.client({ balanceUsd: '1.00' });
    const pdf = upload(clientId, 'pdf-extract-text', pdfFile(2));
    const input = { upload_id: pdf.upload_id };
    const quote = await h.quote(clientId, 'pdf-extract-text', input);
    const { run } = await h.run({
      client_id: clientId,
      slug: 'pdf-extract-text',
      input,
      quote_id: quote.quote_id,
      idempotency_key: `r-${randomUUID()}`,
    });
    const jobId = runJobId(run.run_id, 1);
    await expect(h.claim(run.run_id, jobId)).resolves.toEqual({ go: true, attempt: 1 });
    return { clientId, runId: run.run_id, jobId, pdf };
  }

  function pdfResult(uploadId: string) {
    return {
      upload_id: uploadId,
      pages: 2,
      characters: 11,
      page_texts: [
        { page: 1, characters: 5, text: 'hello', truncated: false },
        { page: 2, characters: 6, text: 'world!', truncated: false },
      ],
      truncated: false,
      text_artifact: 'text.txt',
    };
  }

  function artifact(runId: string): ProducedArtifact {
    return {
      name: 'text.txt',
      content_type: 'text/plain',
      size_bytes: 12,
      sha256: 'cd'.repeat(32),
      storage_key: `artifacts/${runId}/text.txt`,
    };
  }

  it('registers the artifacts for the run owner before the run shows completed', async () => {
    const { clientId, runId, jobId, pdf } = await runningPdfRun();
    const seen: string[] = [];
    uploads.onRegister = async (call) => {
      const row = await h.prisma.run.findUniqueOrThrow({ where: { id: call.run_id } });
      seen.push(row.status);
    };
    try {
      const artifacts = [artifact(runId)];
      await expect(
        h.report({
          event: 'completed',
          run_id: runId,
          job_id: jobId,
          attempt: 1,
          at: at(2),
          result: pdfResult(pdf.upload_id),
          artifacts,
        }),
      ).resolves.toEqual({ applied: true });
      expect(uploads.registerCalls.filter((call) => call.run_id === runId)).toEqual([
        { client_id: clientId, run_id: runId, artifacts },
      ]);
      expect(seen).toEqual(['running']);
      expect(await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
        status: 'completed',
      });
      // A redelivered completed report finds the run final: nothing is registered again.
      await h.report({
        event: 'completed',
        run_id: runId,
        job_id: jobId,
        attempt: 1,
        at: at(3),
        result: pdfResult(pdf.upload_id),
        artifacts,
      });
      expect(uploads.registerCalls.filter((call) => call.run_id === runId)).toHaveLength(1);
    } finally {
      uploads.onRegister = undefined;
    }
  });

  it('a failing registration fails the report (503): the run stays running, and the retried report completes it', async () => {
    const { runId, jobId, pdf } = await runningPdfRun();
    const statuses: string[] = [];
    uploads.onRegister = async (call) => {
      if (call.run_id !== runId) return;
      statuses.push((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).status);
    };
    uploads.failRegistrations(1);
    const report = {
      event: 'completed' as const,
      run_id: runId,
      job_id: jobId,
      attempt: 1,
      at: at(2),
      result: pdfResult(pdf.upload_id),
      artifacts: [artifact(runId)],
    };
    try {
      // The worker is refused and keeps asking (it completes its job only once a report is answered).
      const refused = await rejection(h.report(report));
      expect(refused).toBeInstanceOf(ServiceUnavailableError);
      expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('running');
      await expect(h.report(report)).resolves.toEqual({ applied: true });
    } finally {
      uploads.onRegister = undefined;
    }
    expect(statuses).toEqual(['running', 'running']);
    expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('completed');
  });

  it('a completed report without artifacts does not call the upload service', async () => {
    const { runId, jobId, pdf } = await runningPdfRun();
    await expect(
      h.report({
        event: 'completed',
        run_id: runId,
        job_id: jobId,
        attempt: 1,
        at: at(2),
        result: pdfResult(pdf.upload_id),
      }),
    ).resolves.toEqual({ applied: true });
    expect(uploads.registerCalls.filter((call) => call.run_id === runId)).toEqual([]);
  });
});
