import { CapabilityManifest, CrtInput, manifestInputJsonSchema } from '@svc/contracts';
import { manifestToRow } from '../domain/records';
import { CATEGORIES, isCategory, MANIFESTS } from './index';

describe('manifests in code', () => {
  test.each(MANIFESTS.map((manifest) => [manifest.slug, manifest] as const))(
    '%s is a valid manifest',
    (_slug, manifest) => {
      expect(CapabilityManifest.safeParse(manifest).success).toBe(true);
      expect(isCategory(manifest.category)).toBe(true);
      expect(() => manifestToRow(manifest)).not.toThrow();
    },
  );

  test('slugs are unique', () => {
    const slugs = MANIFESTS.map((manifest) => manifest.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  test('the category vocabulary is small and slug-shaped', () => {
    expect(CATEGORIES.length).toBeLessThanOrEqual(12);
    for (const category of CATEGORIES) expect(category).toMatch(/^[a-z]+$/);
    expect(isCategory('dns')).toBe(false);
  });
});

describe('crt manifest (spec §1.7, §2.6)', () => {
  const crt = MANIFESTS.find((manifest) => manifest.slug === 'crt');

  test('free, no files, supported node sync, input CrtInput', () => {
    expect(crt).toMatchObject({
      category: 'security',
      pricing: { model: 'free' },
      file_requirements: { accepts_files: false, min_files: 0, max_files: 0 },
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'sync' },
    });
    expect(crt?.input).toBe(CrtInput);
  });

  test('the stored input schema is strict, requires apex, publishes it as a hostname and bounds limit', () => {
    if (!crt) throw new Error('crt manifest missing');
    const schema = manifestInputJsonSchema(crt);
    expect(manifestToRow(crt).inputSchema).toEqual(schema);
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
    const text = `${crt?.name} ${crt?.description} ${crt?.tags.join(' ')}`.toLowerCase();
    for (const word of ['certificate transparency', 'subdomains', 'domain', 'free', 'do not prove', 'live']) {
      expect(text).toContain(word);
    }
  });
});
