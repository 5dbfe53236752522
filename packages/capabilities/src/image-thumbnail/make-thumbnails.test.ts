import type { ResolvedFile } from '@svc/contracts';
import sharp from 'sharp';
import { createTempStore, sha256, type TempStore } from '../../test/support/temp-store';
import { type CapabilityOutcome, RunCancelledError } from '../kit/outcome';
import { makeThumbnails } from './make-thumbnails';
import { ImageThumbnailInput } from './schema';

// image-thumbnail on images made here with sharp (PNG, JPEG, WebP, an EXIF-rotated JPEG), the
// thumbnails written to a real fs object store of a temp dir and decoded back with sharp.

const never = new AbortController().signal;
let temp: TempStore;

beforeAll(async () => {
  temp = await createTempStore();
});

afterAll(async () => {
  await temp?.close();
});

/** A width × height image with a gradient (so encoders have something to encode) in `format`. */
async function image(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' | 'gif',
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = 128;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

const CONTENT_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' } as const;

async function upload(
  name: string,
  bytes: Buffer,
  format: keyof typeof CONTENT_TYPES,
): Promise<ResolvedFile> {
  return temp.upload(name, CONTENT_TYPES[format], bytes);
}

async function run(files: ResolvedFile[], input: Record<string, unknown>, signal = never) {
  const { runId, storage } = temp.run();
  const parsed = ImageThumbnailInput.parse({ upload_ids: files.map((file) => file.upload_id), ...input });
  const outcome = await makeThumbnails({ input: parsed, files, storage }, signal);
  return { outcome, runId };
}

function completed(outcome: CapabilityOutcome) {
  if (outcome.kind !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('makeThumbnails', () => {
  it('makes a thumbnail per image and size from PNG, JPEG and WebP, each an artifact with its size and hash', async () => {
    const files = [
      await upload('Holiday photo.png', await image(400, 300, 'png'), 'png'),
      await upload('scan.jpeg', await image(300, 600, 'jpeg'), 'jpeg'),
      await upload('logo.webp', await image(200, 200, 'webp'), 'webp'),
    ];
    const { outcome, runId } = await run(files, { sizes: [{ width: 100 }, { width: 50, height: 50 }] });
    const done = completed(outcome);
    expect(done.result.thumbnails).toBe(6);
    expect(done.result.images).toEqual([
      {
        upload_id: files[0]?.upload_id,
        source: { format: 'png', width: 400, height: 300 },
        thumbnails: [
          { artifact: 'Holiday-photo-1-100x75.webp', width: 100, height: 75, bytes: expect.any(Number) },
          { artifact: 'Holiday-photo-1-50x38.webp', width: 50, height: 38, bytes: expect.any(Number) },
        ],
      },
      {
        upload_id: files[1]?.upload_id,
        source: { format: 'jpeg', width: 300, height: 600 },
        thumbnails: [
          { artifact: 'scan-2-100x200.webp', width: 100, height: 200, bytes: expect.any(Number) },
          { artifact: 'scan-2-25x50.webp', width: 25, height: 50, bytes: expect.any(Number) },
        ],
      },
      {
        upload_id: files[2]?.upload_id,
        source: { format: 'webp', width: 200, height: 200 },
        thumbnails: [
          { artifact: 'logo-3-100x100.webp', width: 100, height: 100, bytes: expect.any(Number) },
          { artifact: 'logo-3-50x50.webp', width: 50, height: 50, bytes: expect.any(Number) },
        ],
      },
    ]);
    expect(done.artifacts).toHaveLength(6);
    for (const artifact of done.artifacts ?? []) {
      expect(artifact.storage_key).toBe(`artifacts/${runId}/${artifact.name}`);
      expect(artifact.content_type).toBe('image/webp');
      const stored = await temp.read(artifact.storage_key);
      expect(stored.length).toBe(artifact.size_bytes);
      expect(sha256(stored)).toBe(artifact.sha256);
      const size = /-(\d+)x(\d+)\.webp$/.exec(artifact.name);
      expect(await sharp(stored).metadata()).toMatchObject({
        format: 'webp',
        width: Number(size?.[1]),
        height: Number(size?.[2]),
      });
    }
  });

  it('honours fit: cover fills and crops, contain pads, inside never enlarges', async () => {
    const file = await upload('wide.png', await image(400, 100, 'png'), 'png');
    const sizes = [{ width: 80, height: 80 }];
    const cover = completed((await run([file], { sizes, fit: 'cover', format: 'png' })).outcome);
    const contain = completed((await run([file], { sizes, fit: 'contain', format: 'png' })).outcome);
    const inside = completed(
      (await run([file], { sizes: [{ width: 800 }], fit: 'inside', format: 'png' })).outcome,
    );
    const first = (outcome: ReturnType<typeof completed>) =>
      (outcome.result.images as { thumbnails: { width: number; height: number; artifact: string }[] }[])[0]
        ?.thumbnails[0];
    expect(first(cover)).toMatchObject({ width: 80, height: 80, artifact: 'wide-1-80x80.png' });
    expect(first(contain)).toMatchObject({ width: 80, height: 80 });
    expect(first(inside)).toMatchObject({ width: 400, height: 100, artifact: 'wide-1-400x100.png' });
    // contain pads with transparency: the top-left corner of the PNG is see-through.
    const padded = contain.artifacts?.[0];
    if (padded === undefined) throw new Error('no artifact');
    const { data } = await sharp(await temp.read(padded.storage_key))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
  });

  it('writes JPEG thumbnails as .jpg with image/jpeg', async () => {
    const file = await upload('a.png', await image(64, 64, 'png'), 'png');
    const done = completed((await run([file], { sizes: [{ width: 32 }], format: 'jpeg' })).outcome);
    expect(done.artifacts).toMatchObject([{ name: 'a-1-32x32.jpg', content_type: 'image/jpeg' }]);
    const stored = await temp.read(done.artifacts?.[0]?.storage_key ?? '');
    expect((await sharp(stored).metadata()).format).toBe('jpeg');
  });

  it('applies the EXIF orientation: a 400x300 JPEG tagged "rotate 90" is a 300x400 portrait', async () => {
    const rotated = await sharp(await image(400, 300, 'jpeg'))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect((await sharp(rotated).metadata()).orientation).toBe(6);
    const file = await upload('portrait.jpg', rotated, 'jpeg');
    const done = completed((await run([file], { sizes: [{ width: 150 }] })).outcome);
    expect(done.result.images).toMatchObject([
      {
        source: { format: 'jpeg', width: 300, height: 400 },
        thumbnails: [{ artifact: 'portrait-1-150x200.webp', width: 150, height: 200 }],
      },
    ]);
  });

  it('gives one artifact when two sizes come out the same for an image', async () => {
    const file = await upload('sq.png', await image(100, 100, 'png'), 'png');
    const done = completed(
      (await run([file], { sizes: [{ width: 40 }, { width: 40, height: 40 }] })).outcome,
    );
    expect(done.artifacts?.map((artifact) => artifact.name)).toEqual(['sq-1-40x40.webp']);
    expect(done.result.thumbnails).toBe(1);
  });

  it('fails invalid_input naming the image when a file is not an image', async () => {
    const good = await upload('good.png', await image(10, 10, 'png'), 'png');
    const bad = await temp.upload('bad.png', 'image/png', Buffer.from('this is text, not a PNG'));
    const { outcome, runId } = await run([good, bad], {});
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message:
          'image-thumbnail: image 2 (bad.png): the file is not a JPEG, PNG or WebP image that can be read',
      },
      // sharp's own words are for the log only.
      detail: expect.any(String),
    });
    // The first image's thumbnail was written, then deleted: nothing of a failed run is left.
    expect(await temp.store.stat(`artifacts/${runId}/good-1-10x10.webp`)).toBeNull();
  });

  it('fails invalid_input for a truncated image instead of a half-decoded thumbnail', async () => {
    const whole = await image(300, 300, 'jpeg');
    const file = await temp.upload('cut.jpg', 'image/jpeg', whole.subarray(0, Math.floor(whole.length / 2)));
    const { outcome } = await run([file], {});
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message:
          'image-thumbnail: image 1 (cut.jpg): the image data is damaged or incomplete and cannot be decoded; upload the whole, undamaged file',
      },
      detail: expect.any(String),
    });
  });

  it("fails invalid_input in our words, not libvips', for a truncated PNG (issue 13)", async () => {
    const whole = await image(300, 300, 'png');
    const file = await temp.upload('cut.png', 'image/png', whole.subarray(0, Math.floor(whole.length / 2)));
    const { outcome } = await run([file], {});
    if (outcome.kind !== 'failed') throw new Error(`expected failed, got ${outcome.kind}`);
    expect(outcome.error.message).toBe(
      'image-thumbnail: image 1 (cut.png): the image data is damaged or incomplete and cannot be decoded; upload the whole, undamaged file',
    );
    expect(outcome.detail).toMatch(/png|vips/i);
  });

  it('fails invalid_input for an image format it does not take (GIF)', async () => {
    const file = await temp.upload('anim.gif', 'image/png', await image(20, 20, 'gif'));
    const { outcome } = await run([file], {});
    expect(outcome).toEqual({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message: 'image-thumbnail: image 1 (anim.gif): a gif image; JPEG, PNG or WebP are accepted',
      },
    });
  });

  it('stops between images when the signal aborts, with its reason', async () => {
    const file = await upload('x.png', await image(50, 50, 'png'), 'png');
    const controller = new AbortController();
    controller.abort(new RunCancelledError('run-x'));
    await expect(run([file], {}, controller.signal)).rejects.toBeInstanceOf(RunCancelledError);
  });
});
