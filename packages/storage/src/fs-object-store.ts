import { randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertObjectKey, InvalidObjectKeyError } from './object-key';
import { ObjectNotFoundError, type ObjectStore, type PutOptions } from './object-store';
import { holdStreamErrors } from './stream-errors';

/** Directory under the root for files being written; the rename out of it is what makes a put atomic. */
export const FS_TEMP_DIR = '.tmp';

export interface FsObjectStoreOptions {
  /** Absolute directory holding the objects (created when missing). */
  root: string;
}

/** Not `instanceof Error`: errors made by Node's internals fail that check inside jest's VM context. */
function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/** ENOENT: nothing there; ENOTDIR: a parent "directory" is an object (`a` exists, key `a/b`). */
function isMissing(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}

async function ignoreErrors(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch {
    // best effort: cleanup after a failure that is already being reported
  }
}

/** fsync a directory so a rename in it survives a crash (POSIX: the entry lives in the directory). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The filesystem adapter (docs/decisions.md U3): one file per object at `<root>/<key>`. A put
 * writes `<root>/.tmp/<uuid>`, fsyncs it and renames it over the target: a reader sees the old
 * object or the whole new one, never a partial file, and a failed put leaves only what was there.
 */
export class FsObjectStore implements ObjectStore {
  readonly driver = 'fs' as const;
  readonly root: string;
  readonly #tempDir: string;

  constructor(options: FsObjectStoreOptions) {
    if (!path.isAbsolute(options.root)) {
      throw new RangeError(`FsObjectStore: root must be an absolute path, got ${options.root}`);
    }
    this.root = path.resolve(options.root); // normalised, without a trailing slash
    this.#tempDir = path.join(this.root, FS_TEMP_DIR);
  }

  /** The file of `key`; the temp directory is not a key space. */
  #pathOf(key: string): string {
    assertObjectKey(key);
    if (key === FS_TEMP_DIR || key.startsWith(`${FS_TEMP_DIR}/`)) {
      throw new InvalidObjectKeyError(key, `${FS_TEMP_DIR}/ is reserved by the fs store`);
    }
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable, _options: PutOptions): Promise<void> {
    // The body may fail while mkdir runs, before pipeline listens to it.
    holdStreamErrors(body);
    let target: string;
    try {
      target = this.#pathOf(key);
    } catch (err) {
      body.destroy();
      throw err;
    }
    const temp = path.join(this.#tempDir, randomUUID());
    try {
      await mkdir(this.#tempDir, { recursive: true });
      // `flush`: fsync before the stream closes, and pipeline resolves only after that close, so
      // the bytes are on disk before the rename makes them visible. (A FileHandle's own write
      // stream is no good here: the handle cannot be synced or closed while that stream is open.)
      await pipeline(body, createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true }));
      await this.#renameInto(temp, target);
    } catch (err) {
      body.destroy();
      await ignoreErrors(() => unlink(temp));
      throw err;
    }
  }

  /**
   * rename(temp, target) after making the target's directory. A concurrent delete may remove that
   * directory between the two (it prunes empty directories): then make it again and retry.
   */
  async #renameInto(temp: string, target: string): Promise<void> {
    const dir = path.dirname(target);
    for (let attempt = 1; ; attempt += 1) {
      await mkdir(dir, { recursive: true });
      try {
        await rename(temp, target);
        break;
      } catch (err) {
        if (errorCode(err) !== 'ENOENT' || attempt >= 3) throw err;
      }
    }
    await syncDirectory(dir);
  }

  async get(key: string): Promise<Readable> {
    const file = this.#pathOf(key);
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (err) {
      if (isMissing(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
    try {
      // A directory opens fine on Linux: `uploads` is a prefix of keys, not an object.
      if (!(await handle.stat()).isFile()) throw new ObjectNotFoundError(key);
    } catch (err) {
      await ignoreErrors(() => handle.close());
      throw err;
    }
    // The stream owns the handle from here: it closes it at the end or when destroyed.
    return handle.createReadStream();
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    const file = this.#pathOf(key);
    try {
      const info = await stat(file);
      return info.isFile() ? { sizeBytes: info.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.#pathOf(key);
    try {
      await unlink(file);
    } catch (err) {
      if (isMissing(err)) return;
      // A directory is a prefix of other keys, not an object: nothing to delete (unlink answers
      // EISDIR on Linux, EPERM on macOS).
      if (await isDirectory(file)) return;
      throw err;
    }
    await this.#pruneEmptyDirectories(path.dirname(file));
  }

  /** Removes now-empty directories up to (not including) the root, so `artifacts/<run>/` goes too. */
  async #pruneEmptyDirectories(dir: string): Promise<void> {
    let current = dir;
    while (current !== this.root && current.startsWith(`${this.root}${path.sep}`)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (ENOTEMPTY), already gone, or in use: stop there
      }
      current = path.dirname(current);
    }
  }

  /** Writable: creates the root and the temp directory, then writes, fsyncs and removes a probe file. */
  async check(): Promise<void> {
    await mkdir(this.#tempDir, { recursive: true });
    const probe = path.join(this.#tempDir, `check-${randomUUID()}`);
    const handle = await open(probe, 'wx', 0o600);
    try {
      await handle.writeFile('ok');
      await handle.sync();
    } finally {
      await handle.close();
      await ignoreErrors(() => unlink(probe));
    }
  }
}
