import {
  CSV_MAX_BYTES,
  IMAGE_MAX_PIXELS,
  PDF_EXTRACT_MAX_PAGES,
  PII_MAX_CHARACTERS,
} from '@svc/capabilities';
import { type CapabilityRecord, Quote } from '@svc/contracts';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { FILE_RECORDS, RECORDS } from '../../test/fixtures/capability-records';
import { csvFile, imageFile, pdfFile } from '../../test/fixtures/resolved-files';
import type { CapabilityDirectory } from './capability-directory';
import type { ResolveFilesRequest } from './input-files';
import { executionMessage, freeRunQuote, type QuoteDeps, type QuoteRequest, quoteCapability } from './quote';

const CLIENT_ID = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';
const QUOTE_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';

describe('executionMessage (quote.execution.message)', () => {
  it('says what a run will do in each mode, with and without a worker of the runtime up', () => {
    expect(executionMessage('supported', 'node', true)).toBe('supported: runs on a worker with runtime node');
    expect(executionMessage('supported', 'node', false)).toBe(
      'supported: no worker with runtime node is up right now; a run waits queued until one is',
    );
    expect(executionMessage('requires_worker', 'browser', true)).toBe(
      'requires_worker: a worker with runtime browser is up; a run starts when one takes it',
    );
    expect(executionMessage('requires_worker', 'browser', false)).toBe(
      'requires_worker: no worker with runtime browser is up yet; a run is accepted and waits queued until one is',
    );
    expect(executionMessage('plan_only', 'node', false)).toBe(
      'plan_only: the run returns a plan at once; the server runs nothing',
    );
  });
});

/** The fixtures as the registry publishes them (404 for anything else). */
const directory: CapabilityDirectory = {
  describe: async (slug) => {
    const record: CapabilityRecord | undefined = FILE_RECORDS[slug] ?? RECORDS[slug];
    if (record === undefined) throw new NotFoundError(`unknown capability: ${slug}`);
    return record;
  },
};

/** quoteCapability with fake ports: the wallet echoes the quote it is asked for; uploads answer `files`. */
function fakeQuoteDeps(files: Awaited<ReturnType<QuoteDeps['resolveFiles']>> | Error) {
  const issued: QuoteRequest[] = [];
  const resolved: ResolveFilesRequest[] = [];
  const deps: QuoteDeps = {
    directory,
    issueQuote: async (request): Promise<Quote> => {
      issued.push(request);
      return {
        quote_id: request.quote_id,
        slug: request.slug,
        price_usd: request.price_usd,
        currency: 'USD',
        wallet_clearance: { cleared: true, reason: 'test wallet' },
        created_at: '2026-11-21T12:00:00.000Z',
        expires_at: '2026-11-21T12:15:00.000Z',
        ...(request.price_detail === undefined ? {} : { price_detail: request.price_detail }),
      };
    },
    resolveFiles: async (request) => {
      resolved.push(request);
      if (files instanceof Error) throw files;
      return files;
    },
    workerUp: async () => true,
    newQuoteId: () => QUOTE_ID,
  };
  return { deps, issued, resolved };
}

function quote(deps: QuoteDeps, slug: string, input: Record<string, unknown>) {
  return quoteCapability(deps, { clientId: CLIENT_ID, slug, input, clientType: 'api' });
}

describe('quoteCapability with files (uploads issue)', () => {
  it('prices a PDF by the pages the upload service counted, and asks for its upload without a run id', async () => {
    const pdf = pdfFile(7);
    const { deps, issued, resolved } = fakeQuoteDeps([pdf]);
    const answer = await quote(deps, 'pdf-extract-text', { upload_id: pdf.upload_id });
    expect(answer).toMatchObject({
      price_usd: '0.007',
      price_detail: { unit: 'page', units: 7 },
      execution: { effective_status: 'supported', worker_available: true },
    });
    expect(resolved).toEqual([
      { client_id: CLIENT_ID, slug: 'pdf-extract-text', upload_ids: [pdf.upload_id] },
    ]);
    expect(issued).toHaveLength(1);
  });

  it('prices images per image and a CSV per started megabyte', async () => {
    const images = [imageFile(), imageFile({ content_type: 'image/jpeg' })];
    const imageQuote = await quote(fakeQuoteDeps(images).deps, 'image-thumbnail', {
      upload_ids: images.map((file) => file.upload_id),
      sizes: [{ width: 64 }, { width: 512 }],
    });
    expect(imageQuote).toMatchObject({ price_usd: '0.004', price_detail: { unit: 'image', units: 2 } });
    const csv = csvFile(1_000_001);
    const csvQuote = await quote(fakeQuoteDeps([csv]).deps, 'csv-profile', { upload_id: csv.upload_id });
    expect(csvQuote).toMatchObject({ price_usd: '0.002', price_detail: { unit: 'megabyte', units: 2 } });
  });

  it("passes the upload service's error through and issues no quote", async () => {
    const pdf = pdfFile(1);
    const gone = new ConflictError(`upload ${pdf.upload_id} expired`);
    const { deps, issued } = fakeQuoteDeps(gone);
    await expect(quote(deps, 'pdf-extract-text', { upload_id: pdf.upload_id })).rejects.toBe(gone);
    expect(issued).toEqual([]);
  });

  it('checks input and mode before files: a bad input is 422 and a blocked mode 409, with no uploads call', async () => {
    const { deps, resolved } = fakeQuoteDeps(new Error('must not be called'));
    await expect(quote(deps, 'pdf-extract-text', { upload_id: 'not-a-uuid' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(quote(deps, 'whois', { domain: 'example.com' })).rejects.toBeInstanceOf(ConflictError);
    // A capability without files never reaches the upload service.
    await expect(quote(deps, 'pii-redact', { text: 'hello' })).resolves.toMatchObject({ price_usd: '0.002' });
    expect(resolved).toEqual([]);
  });
});

describe('quoteCapability refuses a file beyond a limit describe publishes (spec §2.1, issue 13)', () => {
  it.each([
    [
      'a PDF of more pages than max_pages',
      'pdf-extract-text',
      () => pdfFile(PDF_EXTRACT_MAX_PAGES + 1),
      'input.upload_id',
      `has ${PDF_EXTRACT_MAX_PAGES + 1} pages; capability pdf-extract-text takes at most ${PDF_EXTRACT_MAX_PAGES} pages (file_requirements.max_pages)`,
    ],
    [
      'an image of more pixels than max_pixels',
      'image-thumbnail',
      () => imageFile({ facts: { width: 10_001, height: 10_000, format: 'png' } }),
      'input.upload_ids[0]',
      `is 10001 × 10000 = 100010000 pixels; capability image-thumbnail takes at most ${IMAGE_MAX_PIXELS} pixels (file_requirements.max_pixels)`,
    ],
    [
      'a file larger than max_size_bytes',
      'csv-profile',
      () => csvFile(CSV_MAX_BYTES + 1),
      'input.upload_id',
      `is ${CSV_MAX_BYTES + 1} bytes; capability csv-profile takes at most ${CSV_MAX_BYTES} bytes (file_requirements.max_size_bytes)`,
    ],
  ])(
    '%s: 422 naming the field and the limit, and no quote is issued',
    async (_label, slug, make, field, why) => {
      const file = make();
      const { deps, issued } = fakeQuoteDeps([file]);
      const input =
        slug === 'image-thumbnail' ? { upload_ids: [file.upload_id] } : { upload_id: file.upload_id };
      const refused = quote(deps, slug, input);
      await expect(refused).rejects.toBeInstanceOf(ValidationError);
      await expect(refused).rejects.toMatchObject({ message: `${field}: upload ${file.upload_id} ${why}` });
      expect(issued).toEqual([]);
    },
  );

  it('a file exactly at each limit is quoted', async () => {
    const pdf = pdfFile(PDF_EXTRACT_MAX_PAGES);
    await expect(
      quote(fakeQuoteDeps([pdf]).deps, 'pdf-extract-text', { upload_id: pdf.upload_id }),
    ).resolves.toMatchObject({
      price_usd: '2.00',
    });
    const image = imageFile({ facts: { width: 10_000, height: 10_000, format: 'png' } });
    await expect(
      quote(fakeQuoteDeps([image]).deps, 'image-thumbnail', { upload_ids: [image.upload_id] }),
    ).resolves.toMatchObject({ price_usd: '0.002' });
  });

  it('a text longer than the maxLength describe publishes is 422 input.text', async () => {
    const { deps, issued } = fakeQuoteDeps(new Error('must not be called'));
    await expect(
      quote(deps, 'pii-redact', { text: 'a'.repeat(PII_MAX_CHARACTERS + 1) }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining(`input.text: must be at most ${PII_MAX_CHARACTERS} characters`),
    });
    expect(issued).toEqual([]);
  });
});

describe('freeRunQuote (a free run without a quote_id: no wallet call)', () => {
  const RUN = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';
  const NOW = new Date('2026-11-26T12:00:00.000Z');

  it("is a valid zero-price Quote under the run id, in the wallet's words for a free price", () => {
    const quote = freeRunQuote(RUN, 'crt', NOW);
    expect(Quote.parse(quote)).toEqual({
      quote_id: RUN,
      slug: 'crt',
      price_usd: '0.00',
      currency: 'USD',
      wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' },
      created_at: '2026-11-26T12:00:00.000Z',
      expires_at: '2026-11-26T12:15:00.000Z',
    });
  });

  it('shows the price detail when the capability has one', () => {
    const detail = { model: 'free' as const };
    expect(freeRunQuote(RUN, 'crt-batch-plan', NOW, detail).price_detail).toEqual(detail);
  });
});
