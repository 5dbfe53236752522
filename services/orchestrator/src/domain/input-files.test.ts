import { randomUUID } from 'node:crypto';
import { defineCapability, defineProbe, storedMeasure } from '@svc/capabilities';
import type { FileRequirements, ResolvedFile } from '@svc/contracts';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { z } from 'zod';
import { FILE_RECORDS, RECORDS } from '../../test/fixtures/capability-records';
import { csvFile, imageFile, pdfFile, resolvedFile } from '../../test/fixtures/resolved-files';
import { definitionOf } from './capability-gate';
import { assertFileCount, type ResolveFilesRequest, resolveInputFiles } from './input-files';

const CLIENT_ID = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';
const RUN_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';

function requirementsOf(slug: string): FileRequirements {
  const record = FILE_RECORDS[slug] ?? RECORDS[slug];
  if (record === undefined) throw new Error(`no fixture for ${slug}`);
  return record.file_requirements;
}

/** A fake `uploads.resolveFiles` answering `files` (or throwing `error`), recording every request. */
function fakeResolver(answer: ResolvedFile[] | Error) {
  const calls: ResolveFilesRequest[] = [];
  const resolve = async (request: ResolveFilesRequest) => {
    calls.push(request);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, resolve };
}

function query(slug: string, input: Record<string, unknown>, runId?: string) {
  return {
    clientId: CLIENT_ID,
    slug,
    requirements: requirementsOf(slug),
    definition: definitionOf(slug),
    input,
    runId,
  };
}

describe('assertFileCount', () => {
  it('422 outside min_files..max_files, naming both bounds and the count', () => {
    const images = requirementsOf('image-thumbnail');
    expect(() => assertFileCount('image-thumbnail', images, 1)).not.toThrow();
    expect(() => assertFileCount('image-thumbnail', images, 10)).not.toThrow();
    expect(() => assertFileCount('image-thumbnail', images, 11)).toThrow(
      new ValidationError('input: capability image-thumbnail takes between 1 and 10 files, got 11'),
    );
    expect(() => assertFileCount('pdf-extract-text', requirementsOf('pdf-extract-text'), 0)).toThrow(
      new ValidationError('input: capability pdf-extract-text takes between 1 and 1 files, got 0'),
    );
  });
});

describe('resolveInputFiles', () => {
  it('never calls the upload service for an input that names no files', async () => {
    const { calls, resolve } = fakeResolver(new Error('must not be called'));
    await expect(resolveInputFiles(resolve, query('pii-redact', { text: 'hello' }))).resolves.toEqual([]);
    expect(calls).toEqual([]);
  });

  it('asks for the ids the input names, in order, for this client and slug (run_id only when given)', async () => {
    const images = [imageFile(), imageFile({ content_type: 'image/webp' })];
    const ids = images.map((file) => file.upload_id);
    const { calls, resolve } = fakeResolver(images);
    await expect(resolveInputFiles(resolve, query('image-thumbnail', { upload_ids: ids }))).resolves.toEqual(
      images,
    );
    await resolveInputFiles(resolve, query('image-thumbnail', { upload_ids: ids }, RUN_ID));
    expect(calls).toEqual([
      { client_id: CLIENT_ID, slug: 'image-thumbnail', upload_ids: ids },
      { client_id: CLIENT_ID, slug: 'image-thumbnail', upload_ids: ids, run_id: RUN_ID },
    ]);
  });

  it('422 for a capability that needs files when its input names none, before any call', async () => {
    const { calls, resolve } = fakeResolver([]);
    // A record that demands a file for a capability whose input has no upload ids.
    const strict = {
      ...query('pii-redact', { text: 'x' }),
      requirements: requirementsOf('pdf-extract-text'),
    };
    await expect(resolveInputFiles(resolve, strict)).rejects.toThrow(
      new ValidationError('input: capability pii-redact takes between 1 and 1 files, got 0'),
    );
    expect(calls).toEqual([]);
  });

  it('422 for too many files before any call (no upload is marked for a refused request)', async () => {
    const { calls, resolve } = fakeResolver([]);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const narrow = {
      ...query('image-thumbnail', { upload_ids: ids }, RUN_ID),
      requirements: { ...requirementsOf('image-thumbnail'), max_files: 2 },
    };
    await expect(resolveInputFiles(resolve, narrow)).rejects.toThrow(
      'input: capability image-thumbnail takes between 1 and 2 files, got 3',
    );
    expect(calls).toEqual([]);
  });

  it('422 for a file whose content type the capability does not take, naming it and the allowed list', async () => {
    const gif = imageFile({ content_type: 'image/gif' });
    const { resolve } = fakeResolver([gif]);
    const err = await resolveInputFiles(
      resolve,
      query('image-thumbnail', { upload_ids: [gif.upload_id] }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toHaveProperty(
      'message',
      `input: upload ${gif.upload_id} is image/gif; capability image-thumbnail takes image/jpeg, image/png, image/webp`,
    );
    // A `type/*` entry takes it.
    const wide = {
      ...query('image-thumbnail', { upload_ids: [gif.upload_id] }),
      requirements: { ...requirementsOf('image-thumbnail'), content_types: ['image/*'] },
    };
    await expect(resolveInputFiles(resolve, wide)).resolves.toEqual([gif]);
  });

  it("passes the upload service's errors through as they are (404, 409, 422)", async () => {
    const pdf = pdfFile(2);
    for (const error of [
      new NotFoundError(`unknown upload_id: ${pdf.upload_id}`),
      new ConflictError(`upload ${pdf.upload_id} is not complete (status pending): PUT its bytes first`),
      new ValidationError(
        `upload ${pdf.upload_id} was made for capability csv-profile, not pdf-extract-text`,
      ),
    ]) {
      const { resolve } = fakeResolver(error);
      await expect(
        resolveInputFiles(resolve, query('pdf-extract-text', { upload_id: pdf.upload_id })),
      ).rejects.toBe(error);
    }
  });

  it("422 for a CSV over csv-profile's max_columns or max_record_characters, as read with the input's delimiter", async () => {
    const requirements = requirementsOf('csv-profile');
    const maxColumns = requirements.max_columns ?? 0;
    const maxCharacters = requirements.max_record_characters ?? 0;
    expect(maxColumns).toBeGreaterThan(0);
    expect(maxCharacters).toBeGreaterThan(0);
    const fits = { columns: 3, max_record_characters: 40, complete: true };
    const wide = csvFile(9_000, {
      facts: {
        csv: { ',': { columns: maxColumns + 1, max_record_characters: 900, complete: false }, ';': fits },
      },
    });
    const { resolve } = fakeResolver([wide]);
    // The default delimiter is ",": the schema's default, also when the input was not parsed with it.
    for (const input of [{ upload_id: wide.upload_id, delimiter: ',' }, { upload_id: wide.upload_id }]) {
      await expect(resolveInputFiles(resolve, query('csv-profile', input))).rejects.toThrow(
        new ValidationError(
          `input.upload_id: upload ${wide.upload_id} has a record of more than ${maxColumns} columns (read with delimiter ","); capability csv-profile takes at most ${maxColumns} columns (file_requirements.max_columns)`,
        ),
      );
    }
    // The same bytes read with ";" are within the limits.
    await expect(
      resolveInputFiles(resolve, query('csv-profile', { upload_id: wide.upload_id, delimiter: ';' })),
    ).resolves.toEqual([wide]);

    const long = csvFile(2_000_000, {
      facts: { csv: { '\t': { columns: 2, max_record_characters: maxCharacters + 1, complete: false } } },
    });
    const longResolver = fakeResolver([long]);
    await expect(
      resolveInputFiles(
        longResolver.resolve,
        query('csv-profile', { upload_id: long.upload_id, delimiter: '\t' }),
      ),
    ).rejects.toThrow(
      new ValidationError(
        `input.upload_id: upload ${long.upload_id} has a record of more than ${maxCharacters} characters (read with delimiter "\\t"); capability csv-profile takes at most ${maxCharacters} characters per record (file_requirements.max_record_characters)`,
      ),
    );
    // No facts for the delimiter (a CSV uploaded before they were measured): nothing to check.
    await expect(
      resolveInputFiles(
        longResolver.resolve,
        query('csv-profile', { upload_id: long.upload_id, delimiter: '|' }),
      ),
    ).resolves.toEqual([long]);
    const old = csvFile(10);
    await expect(
      resolveInputFiles(fakeResolver([old]).resolve, query('csv-profile', { upload_id: old.upload_id })),
    ).resolves.toEqual([old]);
  });

  it("checks a file's facts with the probe its capability declares, whatever the facts (none named here)", async () => {
    // A capability this service has never heard of, with a fact no contract names: its own probe
    // decides, in its own words, for the parsed input.
    const Deck = z.object({ upload_id: z.string(), notes: z.boolean().default(false) }).strict();
    const slideProbe = defineProbe({
      facts: z.object({ slides: z.number().int().optional() }),
      contentTypes: ['text/markdown'],
      measure: async () => ({ default: storedMeasure(async () => ({ slides: 0 })) }),
      checkLimits: ({ slides }, { max_pages: maxPages }, input: z.output<typeof Deck>) =>
        slides === undefined || maxPages === undefined || slides <= maxPages
          ? undefined
          : {
              found: `has ${slides} slides${input.notes ? ' with notes' : ''}`,
              limit: `${maxPages} slides (file_requirements.max_pages)`,
            },
    });
    const deck = defineCapability({
      slug: 'slide-deck',
      name: 'Slides',
      description: 'Slides.',
      category: 'documents',
      tags: ['slides'],
      version: '1.0.0',
      input: Deck,
      pricing: { model: 'free', currency: 'USD', description: 'Free.' },
      files: {
        field: 'upload_id',
        min_files: 1,
        max_files: 1,
        max_size_bytes: 1_000,
        content_types: ['text/markdown'],
        max_pages: 10,
        probe: slideProbe,
      },
      execution: { machine_run_status: 'plan_only', runtime: 'node', mode: 'sync' },
      result: z.object({}),
      plan: () => ({}),
    });
    const file = resolvedFile({ content_type: 'text/markdown', size_bytes: 500, facts: { slides: 12 } });
    const requirements = deck.fileRequirements;
    const slideQuery = (input: Record<string, unknown>) => ({
      clientId: CLIENT_ID,
      slug: 'slide-deck',
      requirements,
      definition: deck,
      input,
    });
    await expect(
      resolveInputFiles(fakeResolver([file]).resolve, slideQuery({ upload_id: file.upload_id, notes: true })),
    ).rejects.toThrow(
      new ValidationError(
        `input.upload_id: upload ${file.upload_id} has 12 slides with notes; capability slide-deck takes at most 10 slides (file_requirements.max_pages)`,
      ),
    );
    const fits = resolvedFile({ content_type: 'text/markdown', size_bytes: 500, facts: { slides: 10 } });
    await expect(
      resolveInputFiles(fakeResolver([fits]).resolve, slideQuery({ upload_id: fits.upload_id })),
    ).resolves.toEqual([fits]);
  });

  it('refuses an answer that is not one file per id asked, in order (a bug of the upload service: 500)', async () => {
    const csv = csvFile(10);
    const { resolve } = fakeResolver([csvFile(10)]);
    const err = await resolveInputFiles(resolve, query('csv-profile', { upload_id: csv.upload_id })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ValidationError);
  });
});
