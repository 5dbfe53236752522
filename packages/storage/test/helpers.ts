import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/** bytes */
export const MiB = 1024 * 1024;

/**
 * `totalBytes` of a fixed pattern, made one chunk at a time as the reader asks (never the whole
 * body in memory); optionally fails with `failWith` after `totalBytes`.
 */
export function patternSource(
  totalBytes: number,
  options: { chunkBytes?: number; failWith?: Error } = {},
): Readable {
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  async function* generate(): AsyncGenerator<Buffer> {
    for (let offset = 0, index = 0; offset < totalBytes; offset += chunkBytes, index += 1) {
      yield Buffer.alloc(Math.min(chunkBytes, totalBytes - offset), index % 251);
    }
    if (options.failWith !== undefined) throw options.failWith;
  }
  return Readable.from(generate(), { objectMode: false });
}

/** SHA-256 (hex) of everything a stream yields. */
export async function sha256Of(stream: Readable): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    hash.update(buffer);
    bytes += buffer.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(parts);
}
