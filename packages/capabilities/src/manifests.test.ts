import {
  CapabilityManifest,
  CrtInput,
  computePrice,
  effectiveRunStatus,
  manifestInputJsonSchema,
  priceUsd,
} from '@svc/contracts';
import type { PricedFile } from './capability-types';
import { CAPABILITIES } from './catalog';
import { CATEGORIES, isCategory } from './categories';
import { capabilityDefinition, filesOf, unitsOf } from './lookup';
import { MANIFESTS } from './manifests';

function manifest(slug: string): CapabilityManifest {
  const found = MANIFESTS.find((candidate) => candidate.slug === slug);
  if (found === undefined) throw new Error(`${slug} manifest missing`);
  return found;
}

/** What the full-text index sees of a manifest, lowercased. */
function searchableText(candidate: CapabilityManifest): string {
  return `${candidate.slug} ${candidate.name} ${candidate.category} ${candidate.tags.join(' ')} ${candidate.description}`.toLowerCase();
}

describe('manifests in code', () => {
  test.each(MANIFESTS.map((candidate) => [candidate.slug, candidate] as const))(
    '%s is a valid manifest with an object input schema',
    (_slug, candidate) => {
      expect(CapabilityManifest.safeParse(candidate).success).toBe(true);
      expect(isCategory(candidate.category)).toBe(true);
      // (manifestToRow accepting it: services/registry/src/manifests/manifest-rows.test.ts)
      // Spec §4.3: `input` is an object (possibly empty), never a bare value.
      expect(manifestInputJsonSchema(candidate)).toMatchObject({
        type: 'object',
        additionalProperties: false,
      });
    },
  );

  test('slugs are unique', () => {
    const slugs = MANIFESTS.map((candidate) => candidate.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  test('every manifest has a capability definition and every definition a manifest', () => {
    const manifestSlugs = MANIFESTS.map((candidate) => candidate.slug).sort();
    expect(CAPABILITIES.map((capability) => capability.slug).sort()).toEqual(manifestSlugs);
    expect(manifestSlugs).toEqual([
      'crt',
      'crt-batch-plan',
      'csv-profile',
      'html-to-pdf',
      'image-thumbnail',
      'pdf-extract-text',
      'pii-redact',
      'whois',
    ]);
  });

  test.each(MANIFESTS.map((candidate) => [candidate.slug, candidate] as const))(
    '%s publishes the very input schema its definition validates with',
    (slug, candidate) => {
      // One schema object: what describe publishes is what the orchestrator enforces (spec §1.2).
      expect(candidate.input).toBe(capabilityDefinition(slug)?.input);
    },
  );

  test.each(
    MANIFESTS.filter((candidate) => candidate.pricing.model === 'per_unit').map(
      (candidate) => [candidate.slug, candidate] as const,
    ),
  )('%s (per_unit) has a definition that measures units', (slug) => {
    expect(capabilityDefinition(slug)?.units).toBeInstanceOf(Function);
  });

  test('every capability that can run has a result schema; a describe_only one has none', () => {
    for (const candidate of MANIFESTS) {
      const status = effectiveRunStatus(candidate.execution.machine_run_status);
      const definition = capabilityDefinition(candidate.slug);
      if (status === 'describe_only') expect(definition?.result).toBeUndefined();
      else expect(definition?.result).toBeDefined();
    }
  });

  test('a capability takes files exactly when its definition names upload ids, within its file requirements', () => {
    for (const candidate of MANIFESTS) {
      const definition = capabilityDefinition(candidate.slug);
      expect(definition?.uploadIds !== undefined).toBe(candidate.file_requirements.accepts_files);
      if (candidate.file_requirements.accepts_files) {
        expect(candidate.file_requirements.min_files).toBeGreaterThanOrEqual(1);
        expect(candidate.file_requirements.max_size_bytes).not.toBeNull();
        expect(candidate.file_requirements.content_types.length).toBeGreaterThan(0);
      }
    }
  });

  test('the category vocabulary is small and slug-shaped', () => {
    expect(CATEGORIES.length).toBeLessThanOrEqual(12);
    for (const category of CATEGORIES) expect(category).toMatch(/^[a-z]+$/);
    expect(isCategory('dns')).toBe(false);
  });
});

describe('crt manifest (spec §1.7, §2.6)', () => {
  const crt = manifest('crt');

  test('free, no files, supported node sync, input CrtInput', () => {
    expect(crt).toMatchObject({
      category: 'security',
      pricing: { model: 'free' },
      file_requirements: { accepts_files: false, min_files: 0, max_files: 0 },
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'sync' },
    });
    expect(crt.input).toBe(CrtInput);
  });

  test('the stored input schema is strict, requires apex, publishes it as a hostname and bounds limit', () => {
    const schema = manifestInputJsonSchema(crt);
    // (the registry stores this very schema: services/registry/src/manifests/manifest-rows.test.ts)
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['apex'],
      properties: {
        // The Public Suffix List rule cannot be written in JSON Schema: the description says it,
        // the server enforces it (packages/contracts/src/apex.ts).
        apex: {
          type: 'string',
          format: 'hostname',
          maxLength: 253,
          description: expect.stringMatching(/registrable domain.*subdomains are rejected/i),
        },
        include_first_seen: { type: 'boolean', default: false },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
      },
    });
    // Exactly these three properties (additionalProperties: false means clients may send no others).
    expect(schema.properties).toEqual({
      apex: expect.anything(),
      include_first_seen: expect.anything(),
      limit: expect.anything(),
    });
  });

  test('the description states the §1.7 caveats and the words people search with', () => {
    const text = searchableText(crt);
    for (const word of ['certificate transparency', 'subdomains', 'domain', 'free', 'do not prove', 'live']) {
      expect(text).toContain(word);
    }
  });
});

describe('pii-redact manifest', () => {
  const pii = manifest('pii-redact');

  test('privacy, supported node async, per 1000 characters at 0.002 USD with a 0.002 USD minimum', () => {
    expect(pii).toMatchObject({
      category: 'privacy',
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
      pricing: {
        model: 'per_unit',
        currency: 'USD',
        unit: '1000_characters',
        unit_price_usd: '0.002',
        minimum_usd: '0.002',
      },
      file_requirements: { accepts_files: false, max_files: 0 },
    });
  });

  test.each([
    ['x', '0.002'], // one started block: 1 unit, also the minimum
    ['x'.repeat(1000), '0.002'],
    ['x'.repeat(1001), '0.004'],
    ['x'.repeat(2500), '0.006'],
    // Code points, not UTF-16 units: 1,000 emoji are 2,000 UTF-16 units but one block.
    ['😀'.repeat(1000), '0.002'],
  ])('a text of %#: priced %s USD through the definition and the published pricing', (text, expected) => {
    const definition = capabilityDefinition('pii-redact');
    if (definition === undefined) throw new Error('pii-redact definition missing');
    const price = computePrice(pii.pricing, unitsOf(definition, { text }));
    expect(priceUsd(price)).toBe(expected);
  });

  test('the input schema publishes text, types and style with their defaults', () => {
    expect(manifestInputJsonSchema(pii)).toMatchObject({
      required: ['text'],
      properties: {
        text: { type: 'string', minLength: 1 },
        types: { type: 'array', default: ['email', 'phone', 'iban', 'card'] },
        style: { enum: ['label', 'mask'], default: 'label' },
      },
    });
  });

  test('the description says what it finds, how it checks and that originals are never stored', () => {
    const text = searchableText(pii);
    for (const word of [
      'e-mail addresses',
      'phone numbers',
      'iban',
      'card numbers',
      'luhn',
      'mod-97',
      'never stored',
      '200,000 characters',
    ]) {
      expect(text).toContain(word);
    }
  });

  test('it carries the words people search with', () => {
    const text = searchableText(pii);
    for (const word of ['redact', 'pii', 'gdpr', 'mask', 'email', 'phone', 'iban', 'credit card']) {
      expect(text).toContain(word);
    }
  });
});

describe('crt-batch-plan manifest', () => {
  const plan = manifest('crt-batch-plan');

  test('security, plan_only node sync, free', () => {
    expect(plan).toMatchObject({
      category: 'security',
      execution: { machine_run_status: 'plan_only', runtime: 'node', mode: 'sync' },
      pricing: { model: 'free', currency: 'USD' },
    });
    expect(effectiveRunStatus(plan.execution.machine_run_status)).toBe('plan_only');
  });

  test('the input schema takes 1 to 500 apexes and the crt options', () => {
    expect(manifestInputJsonSchema(plan)).toMatchObject({
      required: ['apexes'],
      additionalProperties: false,
      properties: {
        apexes: { type: 'array', minItems: 1, maxItems: 500 },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
        include_first_seen: { type: 'boolean', default: false },
      },
    });
  });

  test('the description says it returns a plan with one Idempotency-Key per run and that the server runs nothing', () => {
    const text = searchableText(plan);
    for (const word of [
      'plan',
      'idempotency-key',
      'rejected',
      'reason',
      'the server runs nothing',
      'batch',
      'crt',
    ]) {
      expect(text).toContain(word);
    }
  });
});

describe('html-to-pdf manifest', () => {
  const pdf = manifest('html-to-pdf');

  test('documents, requires_worker on the browser runtime, async, flat 0.01 USD, version 2.0.0', () => {
    expect(pdf).toMatchObject({
      version: '2.0.0',
      category: 'documents',
      execution: { machine_run_status: 'requires_worker', runtime: 'browser', mode: 'async' },
      pricing: { model: 'flat', currency: 'USD', price_usd: '0.01' },
    });
    expect(priceUsd(computePrice(pdf.pricing, 0))).toBe('0.01');
  });

  test('the description names headless Chromium, the sandbox and the size limits', () => {
    const text = searchableText(pdf);
    for (const word of [
      'headless chromium',
      'network requests are blocked',
      'javascript is disabled',
      '500 kb',
      '8 mib',
      'artifact document.pdf',
    ]) {
      expect(text).toContain(word);
    }
  });

  test('it carries the words people search with', () => {
    const text = searchableText(pdf);
    for (const word of ['pdf', 'html', 'render', 'print', 'chromium', 'convert'])
      expect(text).toContain(word);
  });
});

describe('whois manifest', () => {
  const whois = manifest('whois');

  test('network, describe_only node sync, flat 0.001 USD', () => {
    expect(whois).toMatchObject({
      category: 'network',
      execution: { machine_run_status: 'describe_only', runtime: 'node', mode: 'sync' },
      pricing: { model: 'flat', currency: 'USD', price_usd: '0.001' },
    });
    expect(effectiveRunStatus(whois.execution.machine_run_status)).toBe('describe_only');
  });

  test('the description says it is listed for discovery and cannot be quoted or run yet', () => {
    const text = searchableText(whois);
    for (const word of ['whois', 'registrar', 'discovery', 'cannot be quoted or run yet']) {
      expect(text).toContain(word);
    }
  });

  test('its input is one registrable domain', () => {
    expect(manifestInputJsonSchema(whois)).toMatchObject({
      required: ['domain'],
      properties: { domain: { type: 'string', format: 'hostname' } },
    });
  });
});

/** A resolved upload as pricing sees it (the uploads service's facts). */
function pricedFile(size_bytes: number, facts: PricedFile['facts'] = {}): PricedFile {
  return { upload_id: '00000000-0000-4000-8000-000000000001', size_bytes, facts };
}

function priceOf(slug: string, input: unknown, files: PricedFile[]): string {
  const definition = capabilityDefinition(slug);
  if (definition === undefined) throw new Error(`${slug} definition missing`);
  return priceUsd(computePrice(manifest(slug).pricing, unitsOf(definition, input, files)));
}

const UPLOAD_A = '11111111-1111-4111-8111-111111111111';
const UPLOAD_B = '22222222-2222-4222-8222-222222222222';

describe('pdf-extract-text manifest', () => {
  const pdf = manifest('pdf-extract-text');

  test('documents, supported node async, one PDF of at most 25 MiB, per page at 0.001 USD (minimum 0.001)', () => {
    expect(pdf).toMatchObject({
      category: 'documents',
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
      pricing: {
        model: 'per_unit',
        currency: 'USD',
        unit: 'page',
        unit_price_usd: '0.001',
        minimum_usd: '0.001',
      },
      file_requirements: {
        accepts_files: true,
        min_files: 1,
        max_files: 1,
        max_size_bytes: 25 * 1024 * 1024,
        content_types: ['application/pdf'],
      },
    });
  });

  test.each([
    [0, '0.001'], // an empty PDF still costs the minimum
    [1, '0.001'],
    [3, '0.003'],
    [2000, '2.00'],
  ])('a PDF of %i pages is priced %s USD', (pages, expected) => {
    expect(priceOf('pdf-extract-text', { upload_id: UPLOAD_A }, [pricedFile(1_000, { pages })])).toBe(
      expected,
    );
  });

  test('its input names one upload', () => {
    const definition = capabilityDefinition('pdf-extract-text');
    if (definition === undefined) throw new Error('missing');
    expect(filesOf(definition, { upload_id: UPLOAD_A })).toEqual([UPLOAD_A]);
    expect(manifestInputJsonSchema(pdf)).toMatchObject({
      required: ['upload_id'],
      properties: { upload_id: { type: 'string', format: 'uuid' } },
    });
  });

  test('the description says how to upload, the artifact, the limits and what fails', () => {
    const text = searchableText(pdf);
    for (const word of [
      'upload_id',
      'text.txt',
      'per page',
      '25 mib',
      '2,000 pages',
      'no ocr',
      'password',
      'invalid_input',
    ]) {
      expect(text).toContain(word);
    }
  });

  test('it carries the words people search with', () => {
    const text = searchableText(pdf);
    for (const word of ['pdf', 'extract', 'text', 'pages', 'document']) expect(text).toContain(word);
  });
});

describe('image-thumbnail manifest', () => {
  const image = manifest('image-thumbnail');

  test('media, supported node async, 1-10 JPEG/PNG/WebP images of at most 20 MiB, per image at 0.002 USD', () => {
    expect(image).toMatchObject({
      category: 'media',
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
      pricing: { model: 'per_unit', currency: 'USD', unit: 'image', unit_price_usd: '0.002' },
      file_requirements: {
        accepts_files: true,
        min_files: 1,
        max_files: 10,
        max_size_bytes: 20 * 1024 * 1024,
        content_types: ['image/jpeg', 'image/png', 'image/webp'],
      },
    });
  });

  test('priced per image, whatever the number of sizes', () => {
    const files = [pricedFile(10), pricedFile(20)];
    const sizes = [{ width: 64 }, { width: 128 }, { width: 256, height: 256 }];
    expect(priceOf('image-thumbnail', { upload_ids: [UPLOAD_A], sizes }, files.slice(0, 1))).toBe('0.002');
    expect(priceOf('image-thumbnail', { upload_ids: [UPLOAD_A, UPLOAD_B] }, files)).toBe('0.004');
  });

  test('its input names the uploads and publishes sizes, format and fit with their defaults', () => {
    const definition = capabilityDefinition('image-thumbnail');
    if (definition === undefined) throw new Error('missing');
    expect(filesOf(definition, { upload_ids: [UPLOAD_A, UPLOAD_B] })).toEqual([UPLOAD_A, UPLOAD_B]);
    expect(manifestInputJsonSchema(image)).toMatchObject({
      required: ['upload_ids'],
      properties: {
        upload_ids: { type: 'array', minItems: 1, maxItems: 10 },
        sizes: { type: 'array', minItems: 1, maxItems: 5, default: [{ width: 256 }] },
        format: { enum: ['jpeg', 'png', 'webp'], default: 'webp' },
        fit: { enum: ['inside', 'cover', 'contain'], default: 'inside' },
      },
    });
  });

  test('the description names the fit modes, EXIF orientation, artifact names and limits', () => {
    const text = searchableText(image);
    for (const word of [
      'inside',
      'cover',
      'contain',
      'exif',
      'photo-1-256x171.webp',
      '20 mib',
      '100 megapixels',
      'upload_ids',
    ]) {
      expect(text).toContain(word);
    }
  });

  test('it carries the words people search with', () => {
    const text = searchableText(image);
    for (const word of ['thumbnail', 'resize', 'image', 'photo', 'jpeg', 'png', 'webp'])
      expect(text).toContain(word);
  });
});

describe('csv-profile manifest', () => {
  const csv = manifest('csv-profile');

  test('data, supported node async, one text/csv of at most 200 MiB, per started MB at 0.001 USD (minimum 0.001)', () => {
    expect(csv).toMatchObject({
      category: 'data',
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
      pricing: {
        model: 'per_unit',
        currency: 'USD',
        unit: 'megabyte',
        unit_price_usd: '0.001',
        minimum_usd: '0.001',
      },
      file_requirements: {
        accepts_files: true,
        min_files: 1,
        max_files: 1,
        max_size_bytes: 200 * 1024 * 1024,
        content_types: ['text/csv'],
      },
    });
  });

  test.each([
    [1, '0.001'],
    [1_000_000, '0.001'],
    [1_000_001, '0.002'],
    [200 * 1024 * 1024, '0.21'], // 209,715,200 bytes: 210 started megabytes
  ])('a file of %i bytes is priced %s USD', (bytes, expected) => {
    expect(priceOf('csv-profile', { upload_id: UPLOAD_A }, [pricedFile(bytes)])).toBe(expected);
  });

  test('its input publishes delimiter, header and sample rows with their defaults', () => {
    expect(manifestInputJsonSchema(csv)).toMatchObject({
      required: ['upload_id'],
      properties: {
        delimiter: { enum: [',', ';', '\t', '|'], default: ',' },
        has_header: { type: 'boolean', default: true },
        sample_rows: { type: 'integer', minimum: 0, maximum: 20, default: 5 },
      },
    });
  });

  test('the description says what each column gets, the limits and what fails', () => {
    const text = searchableText(csv);
    for (const word of [
      'inferred type',
      'null',
      'distinct',
      '10,000',
      'min and max',
      'mean',
      '200 mib',
      '500 columns',
      'unclosed quote',
      'invalid_input',
    ]) {
      expect(text).toContain(word);
    }
  });

  test('it carries the words people search with', () => {
    const text = searchableText(csv);
    for (const word of ['csv', 'profile', 'data quality', 'columns', 'statistics', 'schema'])
      expect(text).toContain(word);
  });
});
