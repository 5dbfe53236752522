import { filenameStem, thumbnailName } from './thumbnail-names';

describe('thumbnail names', () => {
  it.each([
    ['photo.jpg', 'photo'],
    ['Photo of me (1).JPG', 'Photo-of-me-1'],
    ['archive.tar.gz', 'archive-tar'],
    ['.hidden', 'hidden'],
    ['ÿ€.png', 'image'],
    ['no-extension', 'no-extension'],
    ['a'.repeat(300), 'a'.repeat(64)],
    ['---.png', 'image'],
  ])('stem of %j is %j', (filename, stem) => {
    expect(filenameStem(filename)).toBe(stem);
  });

  it('is <stem>-<n>-<w>x<h>.<ext>, jpeg as .jpg', () => {
    expect(thumbnailName('photo.png', 1, { width: 256, height: 171 }, 'webp')).toBe('photo-1-256x171.webp');
    expect(thumbnailName('photo.png', 3, { width: 10, height: 20 }, 'jpeg')).toBe('photo-3-10x20.jpg');
    expect(thumbnailName('a b.png', 2, { width: 1, height: 1 }, 'png')).toBe('a-b-2-1x1.png');
  });

  it('only ever yields characters an object key segment allows', () => {
    for (const filename of ['../../etc/passwd', 'a/b\\c.png', ' spaced .png', '%00.png', '😀.webp']) {
      expect(thumbnailName(filename, 1, { width: 1, height: 1 }, 'png')).toMatch(
        /^[A-Za-z0-9_-]+-1-1x1\.png$/,
      );
    }
  });
});
