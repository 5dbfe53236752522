import {
  CAPABILITY_DEFINITIONS,
  CapabilityManifest,
  CrtInput,
  capabilityDefinition,
  computePrice,
  effectiveRunStatus,
  manifestInputJsonSchema,
  priceUsd,
  unitsOf,
} from '@svc/contracts';
import { manifestToRow } from '../domain/records';
import { CATEGORIES, isCategory, MANIFESTS } from './index';

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
      expect(() => manifestToRow(candidate)).not.toThrow();
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
    expect(Object.keys(CAPABILITY_DEFINITIONS).sort()).toEqual(manifestSlugs);
    expect(manifestSlugs).toEqual(['crt', 'crt-batch-plan', 'html-to-pdf', 'pii-redact', 'whois']);
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

  test('documents, requires_worker on the browser runtime, async, flat 0.01 USD', () => {
    expect(pdf).toMatchObject({
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
