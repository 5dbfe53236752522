import { type FileRequirements, NO_FILES, UPLOAD_MAX_BYTES } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import {
  assertFileCount,
  assertSessionFile,
  extensionOf,
  extensionProblem,
  listOf,
} from './file-requirements';

const PDF_ONLY: FileRequirements = {
  accepts_files: true,
  min_files: 1,
  max_files: 1,
  max_size_bytes: 1_000_000,
  content_types: ['application/pdf'],
};
const IMAGES: FileRequirements = {
  accepts_files: true,
  min_files: 1,
  max_files: 10,
  max_size_bytes: null,
  content_types: ['image/jpeg', 'image/png', 'image/webp'],
};

function failure(run: () => void): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected a ValidationError');
}

describe('file names', () => {
  it('finds the extension, if any', () => {
    expect(extensionOf('report.PDF')).toBe('pdf');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('README')).toBeNull();
    expect(extensionOf('.env')).toBeNull();
    expect(extensionOf('trailing.')).toBeNull();
  });

  it('checks the extension against the content type (mime-types)', () => {
    expect(extensionProblem('report.pdf', 'application/pdf')).toBeNull();
    expect(extensionProblem('photo.JPG', 'image/jpeg')).toBeNull();
    expect(extensionProblem('photo.jpeg', 'image/jpeg')).toBeNull();
    expect(extensionProblem('scan', 'application/pdf')).toBeNull();
    expect(extensionProblem('data.bin', 'application/x-unknown-thing')).toBeNull();
    expect(extensionProblem('report.png', 'application/pdf')).toBe(
      'report.png has the extension .png, which is not one of application/pdf (.pdf)',
    );
  });

  it('lists alternatives readably', () => {
    expect(listOf(['a'])).toBe('a');
    expect(listOf(['a', 'b'])).toBe('a or b');
    expect(listOf(['a', 'b', 'c'])).toBe('a, b or c');
  });
});

describe('assertSessionFile', () => {
  const pdf = { filename: 'report.pdf', content_type: 'application/pdf', size_bytes: 1_000 };

  it('accepts a file that fits', () => {
    expect(() => assertSessionFile('pdf-extract-text', PDF_ONLY, pdf)).not.toThrow();
    expect(() =>
      assertSessionFile('image-thumbnail', IMAGES, {
        filename: 'a.webp',
        content_type: 'image/webp',
        size_bytes: 5,
      }),
    ).not.toThrow();
  });

  it('refuses a capability without files', () => {
    expect(failure(() => assertSessionFile('crt', NO_FILES, pdf))).toBe('capability crt takes no files');
  });

  it('names the allowed content types', () => {
    expect(failure(() => assertSessionFile('image-thumbnail', IMAGES, { ...pdf, filename: 'x.pdf' }))).toBe(
      'input.content_type: capability image-thumbnail accepts image/jpeg, image/png or image/webp, not application/pdf',
    );
  });

  it('names the limit that is exceeded', () => {
    expect(
      failure(() => assertSessionFile('pdf-extract-text', PDF_ONLY, { ...pdf, size_bytes: 1_000_001 })),
    ).toBe(
      'input.size_bytes: 1000001 bytes is over the 1000000 bytes capability pdf-extract-text accepts per file',
    );
    expect(
      failure(() =>
        assertSessionFile('image-thumbnail', IMAGES, {
          filename: 'a.png',
          content_type: 'image/png',
          size_bytes: UPLOAD_MAX_BYTES + 1,
        }),
      ),
    ).toBe(
      `input.size_bytes: ${UPLOAD_MAX_BYTES + 1} bytes is over the platform limit of ${UPLOAD_MAX_BYTES} bytes per upload`,
    );
  });

  it('refuses a filename whose extension is not the content type', () => {
    expect(
      failure(() => assertSessionFile('pdf-extract-text', PDF_ONLY, { ...pdf, filename: 'report.docx' })),
    ).toMatch(/^input\.filename: report\.docx has the extension \.docx/);
  });
});

describe('assertFileCount', () => {
  it('accepts counts within min..max', () => {
    expect(() => assertFileCount('image-thumbnail', IMAGES, 1)).not.toThrow();
    expect(() => assertFileCount('image-thumbnail', IMAGES, 10)).not.toThrow();
    expect(() => assertFileCount('crt', NO_FILES, 0)).not.toThrow();
  });

  it('names the range and the count', () => {
    expect(failure(() => assertFileCount('image-thumbnail', IMAGES, 11))).toBe(
      'capability image-thumbnail takes 1 to 10 files; the input names 11',
    );
    expect(failure(() => assertFileCount('pdf-extract-text', PDF_ONLY, 0))).toBe(
      'capability pdf-extract-text takes exactly 1 file; the input names 0',
    );
    expect(failure(() => assertFileCount('crt', NO_FILES, 1))).toBe('capability crt takes no files');
  });
});
