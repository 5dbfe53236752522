import { DescribeCapabilityResponse } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import { catalogChangedPublisher } from '../src/adapters/catalog-events';
import { describeCapability } from '../src/domain/describe';
import { seedCatalog } from '../src/domain/seed';
import { MANIFESTS } from '../src/manifests';
import { SYNTHETIC_MANIFESTS } from './fixtures';
import { type RegistryTestEnv, startTestEnv } from './harness';

let env: RegistryTestEnv;

beforeAll(async () => {
  env = await startTestEnv('describe');
  await seedCatalog({
    prisma: env.prisma,
    publishCatalogChanged: catalogChangedPublisher(env.bus),
    logger: env.logger,
    manifests: [...MANIFESTS, ...SYNTHETIC_MANIFESTS],
  });
});

afterAll(async () => {
  await env?.close();
});

describe('describeCapability', () => {
  test('crt: the record and the JSON Schema of CrtInput', async () => {
    const response = DescribeCapabilityResponse.parse(await describeCapability(env.prisma, 'crt'));
    expect(response.ok).toBe(true);
    expect(response.capability).toMatchObject({
      slug: 'crt',
      name: 'Certificate transparency hostnames',
      category: 'security',
      version: '1.0.0',
      pricing: { model: 'free', currency: 'USD' },
      file_requirements: { accepts_files: false, min_files: 0, max_files: 0 },
      execution: {
        machine_run_status: 'supported',
        effective_status: 'supported',
        runtime: 'node',
        mode: 'sync',
      },
    });
    expect(Date.parse(response.capability.updated_at)).not.toBeNaN();

    const schema = response.input_schema;
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['apex'],
      properties: {
        apex: { type: 'string' },
        include_first_seen: { type: 'boolean', default: false },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
      },
    });
  });

  test.each([
    ['pii-redact', 'supported', 'node', 'async', 'per_unit', ['text']],
    ['crt-batch-plan', 'plan_only', 'node', 'sync', 'free', ['apexes']],
    ['html-to-pdf', 'requires_worker', 'browser', 'async', 'flat', ['html']],
    ['pdf-extract-text', 'supported', 'node', 'async', 'per_unit', ['upload_id']],
    ['image-thumbnail', 'supported', 'node', 'async', 'per_unit', ['upload_ids']],
    ['csv-profile', 'supported', 'node', 'async', 'per_unit', ['upload_id']],
    ['whois', 'describe_only', 'node', 'sync', 'flat', ['domain']],
  ])(
    '%s: published %s on runtime %s (%s), %s pricing, its input schema',
    async (slug, status, runtime, mode, model, required) => {
      const response = DescribeCapabilityResponse.parse(await describeCapability(env.prisma, slug));
      expect(response.capability.execution).toEqual({
        machine_run_status: status,
        effective_status: status,
        runtime,
        mode,
      });
      expect(response.capability.pricing.model).toBe(model);
      expect(response.input_schema).toMatchObject({ type: 'object', additionalProperties: false, required });
    },
  );

  test('a record from another manifest keeps its pricing, file requirements and raw status', async () => {
    const response = await describeCapability(env.prisma, 'pdf-ocr');
    expect(response.capability.execution).toEqual({
      machine_run_status: 'requires_worker',
      effective_status: 'requires_worker',
      runtime: 'python',
      mode: 'async',
    });
    expect(response.capability.file_requirements.content_types).toEqual(['application/pdf']);
    expect(response.input_schema.required).toEqual(['upload_id']);
  });

  test.each([
    ['runnable', 'supported'],
    ['describe_only', 'describe_only'],
    ['beta', 'describe_only'],
    ['', 'describe_only'],
    ['SUPPORTED', 'describe_only'],
  ])(
    'stored machine_run_status %j is published raw with effective_status %s (spec §2.1)',
    async (raw, effective) => {
      await env.prisma.capability.update({ where: { slug: 'dns-lookup' }, data: { machineRunStatus: raw } });
      const response = await describeCapability(env.prisma, 'dns-lookup');
      expect(response.capability.execution.machine_run_status).toBe(raw);
      expect(response.capability.execution.effective_status).toBe(effective);
    },
  );

  test('an unknown slug is a NotFoundError naming it', async () => {
    const failure = describeCapability(env.prisma, 'no-such-capability');
    await expect(failure).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure).rejects.toMatchObject({
      status: 404,
      message: 'unknown capability: no-such-capability',
    });
  });
});
