import { imageFile, pdfFile } from '../../test/fixtures/resolved-files';
import { capabilityJobFor, crtJobFor, runJobId } from './dispatch';

const RUN_ID = '3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d';

describe('runJobId', () => {
  it('is run-<id>-<hand-over>, a new id per hand-over, without the `:` BullMQ rejects', () => {
    expect(runJobId(RUN_ID, 1)).toBe(`run-${RUN_ID}-1`);
    expect(runJobId(RUN_ID, 2)).toBe(`run-${RUN_ID}-2`);
    expect(runJobId(RUN_ID, 1)).not.toContain(':');
  });
});

describe('crtJobFor', () => {
  it('builds the capability.crt payload from the stored input', () => {
    const input = { apex: 'example.com', include_first_seen: true, limit: 7 };
    expect(crtJobFor({ id: RUN_ID, slug: 'crt', input })).toEqual({
      run_id: RUN_ID,
      apex: 'example.com',
      include_first_seen: true,
      limit: 7,
    });
  });

  it('refuses a stored input that no longer parses, and runs of other capabilities', () => {
    expect(() => crtJobFor({ id: RUN_ID, slug: 'crt', input: { apex: 'www.example.com' } })).toThrow(
      TypeError,
    );
    expect(() => crtJobFor({ id: RUN_ID, slug: 'crt', input: null })).toThrow(TypeError);
    expect(() => crtJobFor({ id: RUN_ID, slug: 'dns', input: { apex: 'example.com' } })).toThrow(TypeError);
  });
});

describe('capabilityJobFor', () => {
  it('keeps crt on its own payload and gives other capabilities {run_id, input} on their queue', () => {
    const crt = { apex: 'example.com', include_first_seen: false, limit: 100 };
    expect(capabilityJobFor({ id: RUN_ID, slug: 'crt', input: crt })).toEqual({
      name: 'capability.crt',
      payload: { run_id: RUN_ID, ...crt },
    });
    const pii = { text: 'mail me at a@example.com', types: ['email'], style: 'mask' };
    expect(capabilityJobFor({ id: RUN_ID, slug: 'pii-redact', input: pii })).toEqual({
      name: 'capability.pii-redact',
      payload: { run_id: RUN_ID, input: pii },
    });
    expect(capabilityJobFor({ id: RUN_ID, slug: 'html-to-pdf', input: { html: '<p>hi</p>' } })).toMatchObject(
      {
        name: 'capability.html-to-pdf',
        payload: { run_id: RUN_ID, input: { html: '<p>hi</p>' } },
      },
    );
  });

  it('refuses capabilities without a worker queue and stored inputs that no longer parse', () => {
    expect(() =>
      capabilityJobFor({ id: RUN_ID, slug: 'crt-batch-plan', input: { apexes: ['a.com'] } }),
    ).toThrow(TypeError);
    expect(() => capabilityJobFor({ id: RUN_ID, slug: 'whois', input: {} })).toThrow(TypeError);
    expect(() => capabilityJobFor({ id: RUN_ID, slug: 'pii-redact', input: { text: '' } })).toThrow(
      TypeError,
    );
  });
});

describe('capabilityJobFor (file capabilities)', () => {
  it('builds {run_id, input, files} from the stored run for the file capabilities', () => {
    const pdf = pdfFile(4);
    expect(
      capabilityJobFor({
        id: RUN_ID,
        slug: 'pdf-extract-text',
        input: { upload_id: pdf.upload_id },
        files: [pdf],
      }),
    ).toEqual({
      name: 'capability.pdf-extract-text',
      payload: { run_id: RUN_ID, input: { upload_id: pdf.upload_id }, files: [pdf] },
    });
    const images = [imageFile(), imageFile()];
    const input = {
      upload_ids: images.map((f) => f.upload_id),
      sizes: [{ width: 64 }],
      format: 'png',
      fit: 'cover',
    };
    expect(capabilityJobFor({ id: RUN_ID, slug: 'image-thumbnail', input, files: images })).toEqual({
      name: 'capability.image-thumbnail',
      payload: { run_id: RUN_ID, input, files: images },
    });
  });

  it('refuses a file run stored without its files, or with files that no longer parse', () => {
    const pdf = pdfFile(1);
    const input = { upload_id: pdf.upload_id };
    expect(() => capabilityJobFor({ id: RUN_ID, slug: 'pdf-extract-text', input, files: null })).toThrow(
      TypeError,
    );
    expect(() => capabilityJobFor({ id: RUN_ID, slug: 'pdf-extract-text', input })).toThrow(TypeError);
    expect(() =>
      capabilityJobFor({ id: RUN_ID, slug: 'pdf-extract-text', input, files: [{ ...pdf, storage_key: '' }] }),
    ).toThrow(TypeError);
  });

  it('leaves runs without files as they were (files null in the row)', () => {
    const pii = { text: 'mail me at a@example.com', types: ['email'], style: 'mask' };
    expect(capabilityJobFor({ id: RUN_ID, slug: 'pii-redact', input: pii, files: null })).toEqual({
      name: 'capability.pii-redact',
      payload: { run_id: RUN_ID, input: pii },
    });
  });
});
