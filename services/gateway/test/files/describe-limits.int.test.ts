import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { DescribeCapabilityResponse, ErrorResponse, QuoteResponse } from '@svc/contracts';
import { SHARED_STACK_BEFORE_ALL_MS, type TestApiKey } from '@svc/testkit';
import { PDFDocument } from 'pdf-lib';
import { postQuote, postRun } from '../quote-first/support';
import { type SharedPlatform, sharedPlatform } from '../support/shared-platform';
import { FILE_SCOPES, uploadOk } from './support';

/**
 * Issue 13, finding 11 (spec §2.1: the describe response is the source of truth): every limit the
 * server enforces is stated in describe (input schema or file requirements), and an input beyond a
 * limit describe states is refused at quote time with a 422 naming the field, so a quote that could
 * never run is not "cleared". Against the real platform: the registry's manifests, the orchestrator,
 * the uploads service measuring the files. Before the fix, pii-redact's text had no `maxLength` in
 * describe, and a PDF over the page limit was quoted, cleared, and failed only once it ran.
 */

/** A PNG whose header says `width`×`height` (sharp reads only the header for the upload's facts). */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function blankPdf(pages: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let page = 0; page < pages; page += 1) document.addPage([100, 100]);
  return Buffer.from(await document.save());
}

describe('every enforced limit is in describe and checked at quote time (spec §2.1)', () => {
  let files: SharedPlatform;
  let key: TestApiKey;

  beforeAll(async () => {
    // The jest run's shared platform (node-only worker, as the file suites run it); the counts
    // below are of this suite's own client.
    files = await sharedPlatform();
    key = await files.stack.createApiKey({ scopes: FILE_SCOPES, clientName: 'limits', balanceUsd: '100' });
  }, SHARED_STACK_BEFORE_ALL_MS);
  afterAll(() => files?.close());

  const describeOf = async (slug: string) => {
    const answer = await files.stack.fetch(`/api/capabilities/${slug}`);
    expect(answer.status).toBe(200);
    return DescribeCapabilityResponse.parse(answer.json);
  };
  const property = (described: DescribeCapabilityResponse, name: string): Record<string, unknown> => {
    const properties = described.input_schema.properties;
    const found: unknown =
      typeof properties === 'object' && properties !== null ? Reflect.get(properties, name) : undefined;
    if (typeof found !== 'object' || found === null) throw new Error(`no property ${name}`);
    return Object.fromEntries(Object.entries(found));
  };
  const refusal = async (slug: string, input: Record<string, unknown>) => {
    const answer = await postQuote(files.stack, key.apiKey, slug, { input });
    return { status: answer.status, error: ErrorResponse.parse(answer.json).error };
  };

  it.each([
    ['pii-redact', 'text', 'maxLength', (limit: number) => ({ text: 'a'.repeat(limit + 1) })],
    ['html-to-pdf', 'html', 'maxLength', (limit: number) => ({ html: 'a'.repeat(limit + 1) })],
    [
      'crt-batch-plan',
      'apexes',
      'maxItems',
      (limit: number) => ({ apexes: Array.from({ length: limit + 1 }, () => 'example.com') }),
    ],
  ] as const)(
    '%s: describe states %s %s, and a quote beyond it is 422 naming it',
    async (slug, name, keyword, beyond) => {
      const limit = property(await describeOf(slug), name)[keyword];
      if (typeof limit !== 'number') throw new Error(`${slug}.${name}: no ${keyword} in describe`);
      const refused = await refusal(slug, beyond(limit));
      expect(refused.status).toBe(422);
      expect(refused.error).toMatch(new RegExp(`^input\\.${name}: `));
    },
  );

  it('pdf-extract-text: describe states max_pages; a longer PDF is refused at quote and at run, never cleared', async () => {
    const maxPages = (await describeOf('pdf-extract-text')).capability.file_requirements.max_pages;
    if (maxPages === undefined) throw new Error('pdf-extract-text: no max_pages in describe');
    const upload = await uploadOk(
      files.stack,
      key.apiKey,
      'pdf-extract-text',
      { filename: 'long.pdf', content_type: 'application/pdf' },
      await blankPdf(maxPages + 1),
    );
    expect(upload.facts?.pages).toBe(maxPages + 1);
    const input = { upload_id: upload.upload_id };
    const why = `input.upload_id: upload ${upload.upload_id} has ${maxPages + 1} pages; capability pdf-extract-text takes at most ${maxPages} pages (file_requirements.max_pages)`;
    expect(await refusal('pdf-extract-text', input)).toEqual({ status: 422, error: why });
    // The run refuses the same way (it checks the same limits before the wallet is asked).
    const run = await postRun(
      files.stack,
      key.apiKey,
      'pdf-extract-text',
      { input, quote_id: randomUUID() },
      { idempotencyKey: `limits-${randomUUID()}` },
    );
    expect({ status: run.status, error: ErrorResponse.parse(run.json).error }).toEqual({
      status: 422,
      error: why,
    });
    expect(await files.prisma.quote.count({ where: { clientId: key.clientId } })).toBe(0);
  });

  it('image-thumbnail: describe states max_pixels; a larger image is refused at quote', async () => {
    const maxPixels = (await describeOf('image-thumbnail')).capability.file_requirements.max_pixels;
    if (maxPixels === undefined) throw new Error('image-thumbnail: no max_pixels in describe');
    const width = 20_000;
    const height = Math.floor(maxPixels / width) + 1;
    const upload = await uploadOk(
      files.stack,
      key.apiKey,
      'image-thumbnail',
      { filename: 'huge.png', content_type: 'image/png' },
      pngHeaderOnly(width, height),
    );
    expect(await refusal('image-thumbnail', { upload_ids: [upload.upload_id] })).toEqual({
      status: 422,
      error: `input.upload_ids[0]: upload ${upload.upload_id} is ${width} × ${height} = ${width * height} pixels; capability image-thumbnail takes at most ${maxPixels} pixels (file_requirements.max_pixels)`,
    });
  });

  it('csv-profile: describe states max_columns; a wider CSV is refused at quote and at run, as read with its delimiter', async () => {
    const requirements = (await describeOf('csv-profile')).capability.file_requirements;
    const maxColumns = requirements.max_columns;
    if (maxColumns === undefined) throw new Error('csv-profile: no max_columns in describe');
    expect(requirements.max_record_characters).toEqual(expect.any(Number));
    // A header within the limit, then one record a column wider than it (the run would fail there).
    const cells = (count: number, name: string) =>
      Array.from({ length: count }, (_, i) => `${name}${i}`).join(',');
    const csv = Buffer.from(`${cells(3, 'h')}\n${cells(maxColumns + 1, 'v')}\n${cells(3, 'w')}\n`);
    const upload = await uploadOk(
      files.stack,
      key.apiKey,
      'csv-profile',
      { filename: 'wide.csv', content_type: 'text/csv' },
      csv,
    );
    // Measured as the bytes arrived, for every delimiter the input may name.
    expect(upload.facts?.csv?.[','] ?? null).toEqual({
      columns: maxColumns + 1,
      max_record_characters: expect.any(Number),
      complete: false,
    });
    expect(upload.facts?.csv?.[';']?.columns).toBe(1);
    const input = { upload_id: upload.upload_id };
    const why = `input.upload_id: upload ${upload.upload_id} has a record of more than ${maxColumns} columns (read with delimiter ","); capability csv-profile takes at most ${maxColumns} columns (file_requirements.max_columns)`;
    expect(await refusal('csv-profile', input)).toEqual({ status: 422, error: why });
    const run = await postRun(
      files.stack,
      key.apiKey,
      'csv-profile',
      { input, quote_id: randomUUID() },
      { idempotencyKey: `limits-${randomUUID()}` },
    );
    expect({ status: run.status, error: ErrorResponse.parse(run.json).error }).toEqual({
      status: 422,
      error: why,
    });
    expect(await files.prisma.quote.count({ where: { clientId: key.clientId } })).toBe(0);
    // Read with ";" the same bytes are one column wide: that quote clears.
    const semicolon = await postQuote(files.stack, key.apiKey, 'csv-profile', {
      input: { ...input, delimiter: ';' },
    });
    expect(semicolon.status).toBe(200);
    expect(QuoteResponse.parse(semicolon.json).quote.wallet_clearance.cleared).toBe(true);
  });
});
