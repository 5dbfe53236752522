import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import {
  CSV_PRICING,
  capabilityRecord,
  FREE,
  IMAGE_PRICING,
  PDF_PAGE_PRICING,
  PDF_PRICING,
  RECORDS,
} from '../../test/fixtures/capability-records';
import { csvFile, imageFile, pdfFile } from '../../test/fixtures/resolved-files';
import {
  assertHandled,
  assertRunnable,
  blockedMessage,
  definitionOf,
  executionStatusOf,
  priceOf,
  resolveCapability,
} from './capability-gate';

function record(slug: string) {
  const found = RECORDS[slug];
  if (found === undefined) throw new Error(`no fixture for ${slug}`);
  return found;
}

async function describeFixture(slug: string) {
  const found = RECORDS[slug];
  if (found === undefined) throw new NotFoundError(`unknown capability: ${slug}`);
  return found;
}

/** The error `fn` throws (fails the test when it does not). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('execution modes (spec §2.1, docs/decisions.md Q6)', () => {
  it('lets supported, legacy runnable, requires_worker and plan_only through', () => {
    expect(assertRunnable('crt', record('crt'))).toBe('supported');
    expect(assertRunnable('x', capabilityRecord('x', 'runnable'))).toBe('supported');
    expect(assertRunnable('html-to-pdf', record('html-to-pdf'))).toBe('requires_worker');
    expect(assertRunnable('crt-batch-plan', record('crt-batch-plan'))).toBe('plan_only');
  });

  it('refuses describe_only with 409 and the design text', () => {
    const err = thrown(() => assertRunnable('whois', record('whois')));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toHaveProperty(
      'message',
      'capability whois cannot be quoted or run: its execution mode is describe_only (spec §2.1)',
    );
  });

  it('names an unknown raw value, and a missing one, as treated like describe_only', () => {
    const unknown = thrown(() => assertRunnable('x', capabilityRecord('x', 'experimental')));
    expect(unknown).toBeInstanceOf(ConflictError);
    expect(unknown).toHaveProperty(
      'message',
      'capability x cannot be quoted or run: its execution mode "experimental" is not recognised and is treated as describe_only (spec §2.1)',
    );
    // Letter case matters (§2.1: an unknown value).
    expect(() => assertRunnable('x', capabilityRecord('x', 'Supported'))).toThrow(
      /"Supported" is not recognised/,
    );
    expect(blockedMessage('x', '')).toBe(
      'capability x cannot be quoted or run: its execution mode is not published and is treated as describe_only (spec §2.1)',
    );
  });

  it('takes the stricter of the registry effective_status and the re-derived one', () => {
    const inconsistent = capabilityRecord('x', 'supported');
    inconsistent.execution.effective_status = 'describe_only';
    expect(executionStatusOf(inconsistent)).toBe('describe_only');
    expect(() => assertRunnable('x', inconsistent)).toThrow('its execution mode is describe_only');
    const unlocked = capabilityRecord('x', 'experimental');
    unlocked.execution.effective_status = 'supported';
    expect(executionStatusOf(unlocked)).toBe('describe_only');
  });
});

describe('handlers', () => {
  it('409 for a slug this build has no definition, plan builder or worker queue for', () => {
    expect(() => definitionOf('dns-lookup')).toThrow(
      new ConflictError('capability dns-lookup has no handler in this deployment'),
    );
    expect(definitionOf('pii-redact').slug).toBe('pii-redact');
    expect(() => assertHandled('pii-redact', 'plan_only')).toThrow('capability pii-redact has no handler');
    expect(() => assertHandled('crt-batch-plan', 'supported')).toThrow(
      'capability crt-batch-plan has no handler',
    );
    expect(() => assertHandled('crt-batch-plan', 'plan_only')).not.toThrow();
    expect(() => assertHandled('html-to-pdf', 'requires_worker')).not.toThrow();
  });
});

describe('resolveCapability', () => {
  it('parses the input with defaults; priceOf prices it per started 1,000 characters', async () => {
    const resolved = await resolveCapability(describeFixture, 'pii-redact', { text: 'x'.repeat(1_001) });
    expect(resolved.input).toEqual({
      text: 'x'.repeat(1_001),
      types: ['email', 'phone', 'iban', 'card'],
      style: 'label',
    });
    expect(resolved.status).toBe('supported');
    expect(priceOf(resolved.record, resolved.definition, resolved.input)).toEqual({
      micros: 4_000n,
      detail: {
        model: 'per_unit',
        unit: '1000_characters',
        units: 2,
        unit_price_usd: '0.002',
        minimum_usd: '0.002',
        minimum_applied: false,
      },
    });
  });

  it('passes the registry 404 through', async () => {
    await expect(resolveCapability(describeFixture, 'nope', {})).rejects.toThrow(
      new NotFoundError('unknown capability: nope'),
    );
  });

  it('422 with the field path for an input that breaks the schema', async () => {
    const err = await resolveCapability(describeFixture, 'pii-redact', { text: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toHaveProperty('message', expect.stringMatching(/^input\.text: /));
    await expect(resolveCapability(describeFixture, 'pii-redact', { text: 'a', extra: 1 })).rejects.toThrow(
      /input/,
    );
  });

  it('answers the 409 of a blocked mode rather than a 422 for its input', async () => {
    await expect(resolveCapability(describeFixture, 'whois', { nonsense: true })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});

describe('priceOf', () => {
  it('flat and free prices ignore the input size; per_unit applies the minimum', () => {
    expect(priceOf({ pricing: PDF_PRICING }, definitionOf('html-to-pdf'), { html: '<p>x</p>' }).micros).toBe(
      10_000n,
    );
    expect(priceOf({ pricing: FREE }, definitionOf('crt'), { apex: 'example.com' }).micros).toBe(0n);
    const small = priceOf(record('pii-redact'), definitionOf('pii-redact'), { text: 'a' });
    expect(small.micros).toBe(2_000n);
    expect(small.detail).toMatchObject({ units: 1, minimum_applied: false });
  });
});

describe('priceOf with files (uploads issue: per page, per image, per started megabyte)', () => {
  it('prices a PDF by its pages, raised to the minimum for an empty one', () => {
    const pdf = pdfFile(12);
    const price = priceOf(
      { pricing: PDF_PAGE_PRICING },
      definitionOf('pdf-extract-text'),
      { upload_id: pdf.upload_id },
      [pdf],
    );
    expect(price).toEqual({
      micros: 12_000n,
      detail: {
        model: 'per_unit',
        unit: 'page',
        units: 12,
        unit_price_usd: '0.001',
        minimum_usd: '0.001',
        minimum_applied: false,
      },
    });
    const empty = pdfFile(0);
    const minimum = priceOf(
      { pricing: PDF_PAGE_PRICING },
      definitionOf('pdf-extract-text'),
      { upload_id: empty.upload_id },
      [empty],
    );
    expect(minimum.micros).toBe(1_000n);
    expect(minimum.detail).toMatchObject({ units: 0, minimum_applied: true });
  });

  it('prices images per image whatever the sizes, and a CSV per started megabyte', () => {
    const images = [imageFile(), imageFile(), imageFile()];
    const input = {
      upload_ids: images.map((file) => file.upload_id),
      sizes: [{ width: 64 }, { width: 128 }],
    };
    expect(priceOf({ pricing: IMAGE_PRICING }, definitionOf('image-thumbnail'), input, images).micros).toBe(
      6_000n,
    );
    const csv = csvFile(2_000_001);
    const priced = priceOf(
      { pricing: CSV_PRICING },
      definitionOf('csv-profile'),
      { upload_id: csv.upload_id },
      [csv],
    );
    expect(priced.micros).toBe(3_000n);
    expect(priced.detail).toMatchObject({ unit: 'megabyte', units: 3 });
  });
});
