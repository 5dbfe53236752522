import { ErrorResponse } from '@svc/contracts';
import { SHARED_STACK_BEFORE_ALL_MS, startS3rver, type TestApiKey } from '@svc/testkit';
import sharp from 'sharp';
import { sharedPlatform } from '../support/shared-platform';
import { makeCsv, makeImage, makePdf } from './sample-files';
import {
  artifactsOk,
  download,
  FILE_SCOPES,
  type FilesStack,
  runToCompletion,
  sha256,
  startFilesStack,
  uploadOk,
} from './support';

/**
 * The whole file order of spec §4 rule 4 on each storage adapter: session → PUT → quote → run →
 * poll → artifacts → download, for the three file capabilities, over HTTP against the real
 * platform (PostgreSQL, Redis, worker processes, object storage: a directory, then S3 on s3rver).
 */

const PAGES = ['Invoice 2026-001 for ACME', 'Second page: totals and tax', 'Third page: thank you'];

type Adapter = { name: 'fs' } | { name: 's3' };
const ADAPTERS: Adapter[] = [{ name: 'fs' }, { name: 's3' }];

describe.each(ADAPTERS)('file flow on the $name storage adapter', (adapter) => {
  let files: FilesStack;
  let key: TestApiKey;
  let closeS3: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (adapter.name === 's3') {
      // S3 storage is a configuration of its own: a private platform on s3rver.
      const s3 = await startS3rver();
      closeS3 = s3.close;
      files = await startFilesStack(s3.env);
    } else {
      files = await sharedPlatform(); // the jest run's platform stores on fs
    }
    key = await files.stack.createApiKey({
      scopes: FILE_SCOPES,
      clientName: `files-${adapter.name}`,
      balanceUsd: '10',
    });
  }, SHARED_STACK_BEFORE_ALL_MS);
  afterAll(async () => {
    await files?.close();
    await closeS3?.();
  });

  it('pdf-extract-text: priced per page, text per page in the result and as text.txt', async () => {
    const pdf = await makePdf(PAGES);
    const upload = await uploadOk(
      files.stack,
      key.apiKey,
      'pdf-extract-text',
      {
        filename: 'invoice.pdf',
        content_type: 'application/pdf',
      },
      pdf,
    );
    expect(upload).toMatchObject({ status: 'complete', size_bytes: pdf.byteLength, sha256: sha256(pdf) });
    expect(upload.facts?.pages).toBe(3);

    const input = { upload_id: upload.upload_id };
    const { quote, run } = await runToCompletion(files.stack, key.apiKey, 'pdf-extract-text', input);
    expect(quote.price_usd).toBe('0.003');
    expect(quote.price_detail).toMatchObject({ model: 'per_unit', unit: 'page', units: 3 });
    const result = run.result as { pages: number; page_texts: Array<{ page: number; text: string }> };
    expect(result.pages).toBe(3);
    PAGES.forEach((text, i) => {
      expect(result.page_texts[i]?.page).toBe(i + 1);
      expect(result.page_texts[i]?.text).toContain(text);
    });

    const manifest = await artifactsOk(files.stack, key.apiKey, run.run_id);
    expect(manifest).toMatchObject({ ok: true, run_id: run.run_id, status: 'completed', count: 1 });
    const [artifact] = manifest.artifacts;
    expect(artifact).toMatchObject({ name: 'text.txt', run_id: run.run_id });
    expect(artifact?.content_type).toMatch(/^text\/plain/);
    if (artifact === undefined) throw new Error('no artifact');
    expect(Date.parse(artifact.download_expires_at)).toBeGreaterThan(Date.now());

    const got = await download(artifact.download_url, key.apiKey);
    expect(got.status).toBe(200);
    expect(got.bytes.byteLength).toBe(artifact.size_bytes);
    expect(sha256(got.bytes)).toBe(artifact.sha256);
    expect(got.headers.get('x-checksum-sha256')).toBe(artifact.sha256);
    expect(got.headers.get('content-disposition')).toContain('attachment');
    expect(got.headers.get('cache-control')).toContain('no-store');
    const pagesOfText = got.text.split('\f');
    expect(pagesOfText).toHaveLength(3);
    PAGES.forEach((text, i) => {
      expect(pagesOfText[i]).toContain(text);
    });
  }, 90_000);

  it('image-thumbnail: priced per image, one artifact per image and size with the asked dimensions', async () => {
    const png = await makeImage('png', 800, 600);
    const jpeg = await makeImage('jpeg', 300, 400);
    const first = await uploadOk(
      files.stack,
      key.apiKey,
      'image-thumbnail',
      { filename: 'wide.png', content_type: 'image/png' },
      png,
    );
    const second = await uploadOk(
      files.stack,
      key.apiKey,
      'image-thumbnail',
      { filename: 'tall.jpg', content_type: 'image/jpeg' },
      jpeg,
    );
    expect(first.facts).toMatchObject({ width: 800, height: 600 });
    expect(second.facts).toMatchObject({ width: 300, height: 400 });

    const input = {
      upload_ids: [first.upload_id, second.upload_id],
      sizes: [{ width: 160 }, { width: 64, height: 64 }],
      fit: 'cover',
      format: 'webp',
    };
    const { quote, run } = await runToCompletion(files.stack, key.apiKey, 'image-thumbnail', input);
    expect(quote.price_usd).toBe('0.004');
    expect(quote.price_detail).toMatchObject({ unit: 'image', units: 2 });

    const manifest = await artifactsOk(files.stack, key.apiKey, run.run_id);
    expect(manifest.count).toBe(4);
    const sizes: string[] = [];
    for (const artifact of manifest.artifacts) {
      expect(artifact.content_type).toBe('image/webp');
      const got = await download(artifact.download_url, key.apiKey);
      expect(got.status).toBe(200);
      expect(sha256(got.bytes)).toBe(artifact.sha256);
      const meta = await sharp(got.bytes).metadata();
      expect(meta.format).toBe('webp');
      sizes.push(`${meta.width}x${meta.height}`);
    }
    // 800×600 into width 160 keeps the ratio (160×120); 300×400 → 160×213; cover 64×64 crops both.
    expect(sizes.sort()).toEqual(['160x120', '160x213', '64x64', '64x64']);
  }, 90_000);

  it('csv-profile: priced per started MB, streamed profile of every column', async () => {
    const csv = makeCsv(60_000);
    expect(csv.byteLength).toBeGreaterThan(2_000_000);
    const upload = await uploadOk(
      files.stack,
      key.apiKey,
      'csv-profile',
      { filename: 'orders.csv', content_type: 'text/csv' },
      csv,
    );
    const { quote, run } = await runToCompletion(files.stack, key.apiKey, 'csv-profile', {
      upload_id: upload.upload_id,
      sample_rows: 2,
    });
    expect(quote.price_detail).toMatchObject({
      unit: 'megabyte',
      units: Math.ceil(csv.byteLength / 1_000_000),
    });
    const result = run.result as {
      rows: number;
      columns: Array<{
        name: string;
        type: string;
        nulls: number;
        min: unknown;
        max: unknown;
        mean: number | null;
      }>;
      sample_rows: string[][];
    };
    expect(result.rows).toBe(60_000);
    const byName = Object.fromEntries(result.columns.map((c) => [c.name, c]));
    expect(byName.id).toMatchObject({ type: 'integer', nulls: 0, min: 1, max: 60_000, mean: 30_000.5 });
    expect(byName.price?.type).toBe('number');
    expect(byName.active?.type).toBe('boolean');
    expect(byName.day?.type).toBe('date');
    expect(byName.name).toMatchObject({ type: 'string', nulls: 6_000 });
    expect(result.sample_rows).toEqual([
      ['1', '1.25', 'false', '2026-01-02', 'Customer 1, Ltd'],
      ['2', '2.50', 'true', '2026-01-03', 'Customer 2, Ltd'],
    ]);
    // No artifact for a profile.
    expect((await artifactsOk(files.stack, key.apiKey, run.run_id)).count).toBe(0);
  }, 90_000);

  it('another client sees neither the artifacts nor the bytes', async () => {
    const pdf = await makePdf(['private']);
    const upload = await uploadOk(
      files.stack,
      key.apiKey,
      'pdf-extract-text',
      { filename: 'p.pdf', content_type: 'application/pdf' },
      pdf,
    );
    const { run } = await runToCompletion(files.stack, key.apiKey, 'pdf-extract-text', {
      upload_id: upload.upload_id,
    });
    const [artifact] = (await artifactsOk(files.stack, key.apiKey, run.run_id)).artifacts;
    if (artifact === undefined) throw new Error('no artifact');

    const other = await files.stack.createApiKey({
      scopes: FILE_SCOPES,
      clientName: `other-${adapter.name}`,
      balanceUsd: '1',
    });
    const list = await files.stack.fetch(`/api/capability-runs/${run.run_id}/artifacts`, {
      apiKey: other.apiKey,
    });
    expect(list.status).toBe(404);
    expect(ErrorResponse.parse(list.json).error).toBe(`unknown run: ${run.run_id}`);
    const stolen = await download(artifact.download_url, other.apiKey);
    expect(stolen.status).toBe(403);
    expect(ErrorResponse.parse(JSON.parse(stolen.text)).error).toMatch(/not valid for this client/);
    // Another client's upload cannot be quoted either.
    const quote = await files.stack.fetch('/api/capabilities/pdf-extract-text/quote', {
      method: 'POST',
      apiKey: other.apiKey,
      json: { input: { upload_id: upload.upload_id } },
    });
    expect(quote.status).toBe(404);
    expect(ErrorResponse.parse(quote.json).error).toBe(`unknown upload_id: ${upload.upload_id}`);
  }, 90_000);
});
