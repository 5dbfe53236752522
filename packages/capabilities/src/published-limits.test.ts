import { manifestInputJsonSchema } from '@svc/contracts';
import { CRT_BATCH_MAX_ENTRIES } from './crt-batch-plan/schema';
import { CSV_MAX_BYTES, CSV_MAX_COLUMNS, CSV_MAX_RECORD_CHARACTERS } from './csv-profile/schema';
import { HTML_MAX_BYTES } from './html-to-pdf/schema';
import {
  IMAGE_MAX_BYTES,
  IMAGE_MAX_FILES,
  IMAGE_MAX_PIXELS,
  THUMBNAIL_MAX_SIZES,
} from './image-thumbnail/schema';
import { capabilityDefinition } from './lookup';
import { MANIFESTS } from './manifests';
import { PDF_EXTRACT_MAX_BYTES, PDF_EXTRACT_MAX_PAGES } from './pdf-extract-text/schema';
import { PII_MAX_CHARACTERS, PII_TYPES } from './pii-redact/schema';

/**
 * Spec §2.1: the describe response is the source of truth, so every limit the server enforces is in
 * it (issue 13, finding 11): in the input schema (`maxLength`, `maxItems`, `uniqueItems`, …) where
 * JSON Schema can say it, in `file_requirements` for what a file holds. Each published figure is
 * the very constant the orchestrator and the run code enforce (the capability's schema.ts), and the server's own
 * schema accepts an input at the limit and refuses one just beyond it.
 */

const UPLOAD = '0b8a5a34-7f1e-4d3c-9a2b-1c2d3e4f5a6b';
const uploads = (count: number) =>
  Array.from({ length: count }, (_, i) => `0b8a5a34-7f1e-4d3c-9a2b-${String(i).padStart(12, '0')}`);

function manifest(slug: string) {
  const found = MANIFESTS.find((candidate) => candidate.slug === slug);
  if (found === undefined) throw new Error(`${slug} manifest missing`);
  return found;
}

/** The published JSON Schema of one property of a capability's input. */
function property(slug: string, name: string): Record<string, unknown> {
  const schema = manifestInputJsonSchema(manifest(slug));
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) throw new Error(`${slug}: no properties`);
  const found: unknown = Reflect.get(properties, name);
  if (typeof found !== 'object' || found === null) throw new Error(`${slug}: no property ${name}`);
  return Object.fromEntries(Object.entries(found));
}

function serverAccepts(slug: string, input: Record<string, unknown>): boolean {
  const definition = capabilityDefinition(slug);
  if (definition === undefined) throw new Error(`${slug}: no definition`);
  return definition.input.safeParse(input).success;
}

describe('every limit the server enforces on an input is in the published input schema', () => {
  test.each([
    // [slug, property, keyword, limit, input with `n` of what the limit counts]
    ['pii-redact', 'text', 'maxLength', PII_MAX_CHARACTERS, (n: number) => ({ text: 'a'.repeat(n) })],
    [
      'pii-redact',
      'types',
      'maxItems',
      PII_TYPES.length,
      (n: number) => ({ text: 'a', types: PII_TYPES.slice(0, n) }),
    ],
    ['html-to-pdf', 'html', 'maxLength', HTML_MAX_BYTES, (n: number) => ({ html: 'a'.repeat(n) })],
    [
      'image-thumbnail',
      'upload_ids',
      'maxItems',
      IMAGE_MAX_FILES,
      (n: number) => ({ upload_ids: uploads(n) }),
    ],
    [
      'image-thumbnail',
      'sizes',
      'maxItems',
      THUMBNAIL_MAX_SIZES,
      (n: number) => ({
        upload_ids: [UPLOAD],
        sizes: Array.from({ length: n }, (_, i) => ({ width: i + 1 })),
      }),
    ],
    [
      'crt-batch-plan',
      'apexes',
      'maxItems',
      CRT_BATCH_MAX_ENTRIES,
      (n: number) => ({ apexes: Array.from({ length: n }, () => 'example.com') }),
    ],
  ] as const)('%s %s: %s %i, and the server agrees at the limit', (slug, name, keyword, limit, at) => {
    expect(property(slug, name)[keyword]).toBe(limit);
    expect(serverAccepts(slug, at(limit))).toBe(true);
    // pii-redact types: one more than every kind can only repeat one, refused all the same.
    const beyond = name === 'types' ? { text: 'a', types: [...PII_TYPES, 'email'] } : at(limit + 1);
    expect(serverAccepts(slug, beyond)).toBe(false);
  });

  test.each([
    ['pii-redact', 'types', { text: 'a', types: ['email', 'email'] }],
    ['image-thumbnail', 'upload_ids', { upload_ids: [UPLOAD, UPLOAD] }],
  ] as const)('%s %s: uniqueItems, as the server refuses a repeat', (slug, name, repeated) => {
    expect(property(slug, name).uniqueItems).toBe(true);
    expect(serverAccepts(slug, repeated)).toBe(false);
  });

  test('html-to-pdf: the byte limit of UTF-8, which JSON Schema cannot count, is in the description', () => {
    expect(property('html-to-pdf', 'html').description).toContain(`${HTML_MAX_BYTES} bytes of UTF-8`);
    // 500,000 characters of two bytes each: within maxLength, beyond the byte limit the server keeps.
    expect(serverAccepts('html-to-pdf', { html: 'é'.repeat(HTML_MAX_BYTES / 2) })).toBe(true);
    expect(serverAccepts('html-to-pdf', { html: 'é'.repeat(HTML_MAX_BYTES / 2 + 1) })).toBe(false);
  });
});

describe('every limit on the content of a file is in file_requirements', () => {
  test('pdf-extract-text: 25 MiB and the pages the worker reads', () => {
    expect(manifest('pdf-extract-text').file_requirements).toMatchObject({
      max_size_bytes: PDF_EXTRACT_MAX_BYTES,
      max_pages: PDF_EXTRACT_MAX_PAGES,
    });
  });

  test('image-thumbnail: 20 MiB and the pixels sharp decodes', () => {
    expect(manifest('image-thumbnail').file_requirements).toMatchObject({
      max_size_bytes: IMAGE_MAX_BYTES,
      max_pixels: IMAGE_MAX_PIXELS,
    });
  });

  test('csv-profile: 200 MiB, the columns and the record length the worker reads', () => {
    expect(manifest('csv-profile').file_requirements).toMatchObject({
      max_size_bytes: CSV_MAX_BYTES,
      max_columns: CSV_MAX_COLUMNS,
      max_record_characters: CSV_MAX_RECORD_CHARACTERS,
    });
  });

  test('a capability without files publishes no content limit', () => {
    for (const candidate of MANIFESTS.filter((m) => !m.file_requirements.accepts_files)) {
      const { max_pages, max_pixels, max_columns, max_record_characters } = candidate.file_requirements;
      expect([candidate.slug, max_pages, max_pixels, max_columns, max_record_characters]).toEqual([
        candidate.slug,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    }
  });
});
