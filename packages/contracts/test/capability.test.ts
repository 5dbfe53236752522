import { z } from 'zod';
import {
  CapabilityExecution,
  CapabilityManifest,
  CapabilityRecord,
  CapabilitySummary,
  CrtInput,
  DescribeCapabilityResponse,
  FileRequirements,
  manifestInputJsonSchema,
  Pricing,
  publishedExecution,
} from '../src/index';

const noFiles = { accepts_files: false, min_files: 0, max_files: 0, max_size_bytes: null, content_types: [] };
const freePricing = { model: 'free', currency: 'USD', description: 'Free.' } as const;
const execution = {
  machine_run_status: 'supported',
  effective_status: 'supported',
  runtime: 'node',
  mode: 'sync',
};

function record(overrides: Record<string, unknown> = {}) {
  return {
    slug: 'crt',
    name: 'Certificate transparency lookup',
    description: 'Hostnames seen in CT logs for one registrable domain.',
    category: 'dns',
    tags: ['certificate-transparency', 'dns'],
    version: '1.0.0',
    pricing: freePricing,
    file_requirements: noFiles,
    execution,
    updated_at: '2026-08-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('Pricing', () => {
  test('the three models', () => {
    expect(Pricing.safeParse(freePricing).success).toBe(true);
    expect(
      Pricing.safeParse({
        model: 'flat',
        currency: 'USD',
        price_usd: '0.50',
        description: 'USD 0.50 per run.',
      }).success,
    ).toBe(true);
    expect(
      Pricing.safeParse({
        model: 'per_unit',
        currency: 'USD',
        unit: '1000_characters',
        unit_price_usd: '0.004',
        minimum_usd: '0.01',
        description: 'USD 0.004 per 1000 characters, at least USD 0.01.',
      }).success,
    ).toBe(true);
  });

  test('each model requires its own fields and a description', () => {
    expect(Pricing.safeParse({ model: 'flat', currency: 'USD', description: 'x' }).success).toBe(false);
    expect(
      Pricing.safeParse({ model: 'per_unit', currency: 'USD', unit_price_usd: '1', description: 'x' })
        .success,
    ).toBe(false);
    expect(Pricing.safeParse({ model: 'free', currency: 'USD' }).success).toBe(false);
  });

  test('money is a UsdAmount string, currency is USD, unknown model or keys are rejected', () => {
    expect(
      Pricing.safeParse({ model: 'flat', currency: 'USD', price_usd: 0.5, description: 'x' }).success,
    ).toBe(false);
    expect(
      Pricing.safeParse({ model: 'flat', currency: 'USD', price_usd: '-1', description: 'x' }).success,
    ).toBe(false);
    expect(Pricing.safeParse({ model: 'free', currency: 'EUR', description: 'x' }).success).toBe(false);
    expect(Pricing.safeParse({ model: 'auction', currency: 'USD', description: 'x' }).success).toBe(false);
    expect(Pricing.safeParse({ ...freePricing, price_usd: '1' }).success).toBe(false);
  });
});

describe('FileRequirements', () => {
  test('accepts consistent requirements', () => {
    expect(FileRequirements.safeParse(noFiles).success).toBe(true);
    expect(
      FileRequirements.safeParse({
        accepts_files: true,
        min_files: 1,
        max_files: 5,
        max_size_bytes: 10_485_760,
        content_types: ['application/pdf', 'image/*'],
      }).success,
    ).toBe(true);
  });

  test('rejects inconsistent or malformed requirements', () => {
    expect(
      FileRequirements.safeParse({ ...noFiles, accepts_files: true, min_files: 2, max_files: 1 }).success,
    ).toBe(false);
    expect(FileRequirements.safeParse({ ...noFiles, max_files: 1 }).success).toBe(false);
    expect(FileRequirements.safeParse({ ...noFiles, min_files: -1 }).success).toBe(false);
    expect(FileRequirements.safeParse({ ...noFiles, max_size_bytes: 0 }).success).toBe(false);
    expect(FileRequirements.safeParse({ ...noFiles, content_types: ['pdf'] }).success).toBe(false);
    expect(FileRequirements.safeParse({ ...noFiles, extra: 1 }).success).toBe(false);
  });
});

describe('CapabilityExecution', () => {
  test('keeps any raw machine_run_status (legacy or unknown) on the read side', () => {
    for (const raw of ['runnable', 'something_new', '']) {
      expect(
        CapabilityExecution.safeParse({
          ...execution,
          machine_run_status: raw,
          effective_status: 'describe_only',
        }).success,
      ).toBe(true);
    }
  });

  test('effective_status and mode are closed sets', () => {
    expect(CapabilityExecution.safeParse({ ...execution, effective_status: 'runnable' }).success).toBe(false);
    expect(CapabilityExecution.safeParse({ ...execution, mode: 'batch' }).success).toBe(false);
  });

  test('publishedExecution applies the §2.1 rules', () => {
    expect(publishedExecution({ machine_run_status: 'runnable', runtime: 'node', mode: 'sync' })).toEqual({
      machine_run_status: 'runnable',
      effective_status: 'supported',
      runtime: 'node',
      mode: 'sync',
    });
    expect(
      publishedExecution({ machine_run_status: 'plan_only', runtime: 'browser', mode: 'async' })
        .effective_status,
    ).toBe('plan_only');
  });
});

describe('CapabilityRecord and CapabilitySummary', () => {
  test('a full record parses', () => {
    expect(CapabilityRecord.parse(record())).toEqual(record());
  });

  test('field rules', () => {
    expect(CapabilityRecord.safeParse(record({ slug: 'Bad Slug' })).success).toBe(false);
    expect(CapabilityRecord.safeParse(record({ version: 'v1' })).success).toBe(false);
    expect(CapabilityRecord.safeParse(record({ updated_at: 'yesterday' })).success).toBe(false);
    expect(CapabilityRecord.safeParse(record({ tags: ['Not A Tag'] })).success).toBe(false);
    const { pricing: _p, ...withoutPricing } = record();
    expect(CapabilityRecord.safeParse(withoutPricing).success).toBe(false);
  });

  test('summary: relevance optional and non-negative', () => {
    const { version: _v, file_requirements: _f, updated_at: _u, ...summary } = record();
    expect(CapabilitySummary.safeParse(summary).success).toBe(true);
    expect(CapabilitySummary.safeParse({ ...summary, relevance: 0.42 }).success).toBe(true);
    expect(CapabilitySummary.safeParse({ ...summary, relevance: -1 }).success).toBe(false);
  });

  test('describe response carries the record and an input schema object', () => {
    const body = { ok: true, capability: record(), input_schema: { type: 'object', properties: {} } };
    expect(DescribeCapabilityResponse.safeParse(body).success).toBe(true);
    expect(DescribeCapabilityResponse.safeParse({ ...body, input_schema: 'object' }).success).toBe(false);
    expect(DescribeCapabilityResponse.safeParse({ ...body, ok: false }).success).toBe(false);
  });
});

describe('CapabilityManifest', () => {
  const manifest = {
    slug: 'crt',
    name: 'Certificate transparency lookup',
    description: 'Hostnames seen in CT logs for one registrable domain.',
    category: 'dns',
    tags: ['dns'],
    version: '1.0.0',
    pricing: freePricing,
    file_requirements: noFiles,
    execution: { machine_run_status: 'supported', runtime: 'node', mode: 'sync' },
    input: CrtInput,
  };

  test('a manifest with a zod input parses and keeps the schema instance', () => {
    const parsed = CapabilityManifest.parse(manifest);
    expect(parsed.input).toBe(CrtInput);
  });

  test('input must be a zod schema; execution status must be a known value; no extra keys', () => {
    expect(CapabilityManifest.safeParse({ ...manifest, input: { type: 'object' } }).success).toBe(false);
    expect(
      CapabilityManifest.safeParse({
        ...manifest,
        execution: { ...manifest.execution, machine_run_status: 'maybe' },
      }).success,
    ).toBe(false);
    expect(CapabilityManifest.safeParse({ ...manifest, price: '1' }).success).toBe(false);
  });

  test('manifestInputJsonSchema describes the request side (defaults optional, strictness kept)', () => {
    const schema = manifestInputJsonSchema(CapabilityManifest.parse(manifest));
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['apex'],
      additionalProperties: false,
      properties: {
        apex: { type: 'string', format: 'hostname' },
        include_first_seen: { type: 'boolean', default: false },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
      },
    });
  });

  test('manifestInputJsonSchema rejects a non-object input', () => {
    expect(() => manifestInputJsonSchema({ slug: 'x', input: z.string() })).toThrow(/object schema/);
  });

  test('manifestInputJsonSchema accepts an empty input object (spec §4.3)', () => {
    expect(manifestInputJsonSchema({ slug: 'x', input: z.object({}).strict() })).toMatchObject({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });
});
