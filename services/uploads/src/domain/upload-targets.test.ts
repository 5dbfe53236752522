import {
  type CapabilityRecord,
  VAULT_DOCUMENT_CONTENT_TYPES,
  VAULT_DOCUMENT_MAX_BYTES,
  VAULT_DOCUMENT_UPLOAD_SLUG,
} from '@svc/contracts';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { capabilityRecord } from '@svc/testkit';
import { artifactExpiry } from './artifacts';
import type { CapabilityDirectory } from './capability-directory';
import { assertSessionFile } from './file-requirements';
import {
  fileRequirementsOf,
  keptWhenUsed,
  SLUGS_NOT_KEPT_WHEN_USED,
  sessionRequirements,
} from './upload-targets';

/** A directory of the given records that counts its describes. */
function directoryOf(
  records: Record<string, CapabilityRecord>,
): CapabilityDirectory & { describes: string[] } {
  const describes: string[] = [];
  return {
    describes,
    describe: async (slug) => {
      describes.push(slug);
      const record = records[slug];
      if (record === undefined) throw new NotFoundError(`unknown capability: ${slug}`);
      return record;
    },
  };
}

const PDF = capabilityRecord('pdf-extract-text', 'supported', {
  files: {
    accepts_files: true,
    min_files: 1,
    max_files: 1,
    max_size_bytes: 1_000,
    content_types: ['application/pdf'],
  },
});

describe('upload targets', () => {
  it('knows vault-document itself, from the contracts constants, without asking the registry', async () => {
    const directory = directoryOf({});
    const requirements = await sessionRequirements(directory, VAULT_DOCUMENT_UPLOAD_SLUG);
    expect(requirements).toEqual({
      accepts_files: true,
      min_files: 1,
      max_files: 1,
      max_size_bytes: VAULT_DOCUMENT_MAX_BYTES,
      content_types: [...VAULT_DOCUMENT_CONTENT_TYPES],
    });
    expect(await fileRequirementsOf(directory, VAULT_DOCUMENT_UPLOAD_SLUG)).toEqual(requirements);
    expect(directory.describes).toEqual([]);
  });

  it('takes PDF, text, Markdown and HTML up to 10 MB, nothing else', async () => {
    const requirements = await sessionRequirements(directoryOf({}), VAULT_DOCUMENT_UPLOAD_SLUG);
    const file =
      (filename: string, content_type: string, size_bytes = 100) =>
      () =>
        assertSessionFile(VAULT_DOCUMENT_UPLOAD_SLUG, requirements, { filename, content_type, size_bytes });
    for (const [name, type] of [
      ['form.pdf', 'application/pdf'],
      ['letter.txt', 'text/plain'],
      ['letter.md', 'text/markdown'],
      ['letter.html', 'text/html'],
    ] as const) {
      expect(file(name, type)).not.toThrow();
    }
    expect(file('form.pdf', 'application/pdf', VAULT_DOCUMENT_MAX_BYTES)).not.toThrow();
    expect(file('form.pdf', 'application/pdf', VAULT_DOCUMENT_MAX_BYTES + 1)).toThrow(
      new ValidationError(
        `input.size_bytes: ${VAULT_DOCUMENT_MAX_BYTES + 1} bytes is over the ${VAULT_DOCUMENT_MAX_BYTES} bytes capability vault-document accepts per file`,
      ),
    );
    expect(file('photo.png', 'image/png')).toThrow(
      /accepts application\/pdf, text\/plain, text\/markdown or text\/html, not image\/png/,
    );
    expect(file('form.txt', 'application/pdf')).toThrow(/extension \.txt/);
  });

  it('describes any other slug: its requirements, 404 unknown, 409 blocked (sessions only)', async () => {
    const blocked = capabilityRecord('whois', 'describe_only');
    const directory = directoryOf({ 'pdf-extract-text': PDF, whois: blocked });
    expect(await sessionRequirements(directory, 'pdf-extract-text')).toEqual(PDF.file_requirements);
    await expect(sessionRequirements(directory, 'nope')).rejects.toThrow(NotFoundError);
    await expect(sessionRequirements(directory, 'whois')).rejects.toThrow(ConflictError);
    // resolveFiles is asked after the orchestrator's own mode check: no 409 there.
    expect(await fileRequirementsOf(directory, 'whois')).toEqual(blocked.file_requirements);
  });

  it('keeps used uploads of capabilities, not used vault documents', () => {
    expect(keptWhenUsed('pdf-extract-text')).toBe(true);
    expect(keptWhenUsed(VAULT_DOCUMENT_UPLOAD_SLUG)).toBe(false);
    expect(SLUGS_NOT_KEPT_WHEN_USED).toEqual([VAULT_DOCUMENT_UPLOAD_SLUG]);
  });
});

describe('artifactExpiry', () => {
  const now = new Date('2026-11-26T12:00:00.000Z');
  const inHours = (hours: number) => new Date(now.getTime() + hours * 3_600_000);

  it('is the retention without an asked time, and none without either', () => {
    expect(artifactExpiry(now, undefined, undefined)).toBeNull();
    expect(artifactExpiry(now, 2, undefined)).toEqual(inHours(48));
  });

  it('is the earlier of the retention and the asked time', () => {
    expect(artifactExpiry(now, undefined, inHours(24))).toEqual(inHours(24));
    expect(artifactExpiry(now, 2, inHours(24))).toEqual(inHours(24));
    expect(artifactExpiry(now, 1, inHours(72))).toEqual(inHours(24));
  });
});
