import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { loadEnv } from '@svc/config';
import { startS3rver } from '@svc/s3-test-server';
import { z } from 'zod';
import {
  createObjectStore,
  FS_TEMP_DIR,
  InvalidObjectKeyError,
  ObjectNotFoundError,
  type ObjectStore,
  objectStoreFromEnv,
  putMeasured,
  refineStorageEnv,
  SizeLimitError,
  SizeMismatchError,
  storageEnv,
} from '../src';
import { MiB, patternSource, readAll, sha256Of } from './helpers';

/**
 * The ObjectStore contract (src/object-store.ts), run against both adapters: fs in a temp
 * directory, s3 against s3rver in-process (@svc/s3-test-server startS3rver), configured through the env
 * fragment as a service would.
 */
interface Harness {
  store: ObjectStore;
  /** What a failed put could leave besides the key: fs temp files, s3 open multipart uploads. */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
}

async function fsHarness(): Promise<Harness> {
  const root = await mkdtemp(path.join(tmpdir(), 'svc-storage-fs-'));
  return {
    store: createObjectStore({ driver: 'fs', root }),
    leftovers: () => readdir(path.join(root, FS_TEMP_DIR)),
    close: () => rm(root, { recursive: true, force: true }),
  };
}

async function s3Harness(): Promise<Harness> {
  const s3 = await startS3rver();
  const env = loadEnv(z.object(storageEnv).superRefine(refineStorageEnv), s3.env);
  return { store: objectStoreFromEnv(env), leftovers: () => s3.incompleteUploads(), close: () => s3.close() };
}

const text = (value: string) => Readable.from([Buffer.from(value)]);

describe.each([
  ['fs', fsHarness],
  ['s3', s3Harness],
])('%s object store', (driver, start) => {
  let harness: Harness;
  let store: ObjectStore;

  beforeAll(async () => {
    harness = await start();
    store = harness.store;
    await store.check();
  });

  afterAll(async () => {
    await harness.close();
  });

  it('reports its driver', () => {
    expect(store.driver).toBe(driver);
  });

  it('puts, gets, stats and deletes an object', async () => {
    await store.put('uploads/round-trip', text('hello, storage'), {
      contentType: 'text/plain',
      sizeBytes: 14,
    });
    expect(await store.stat('uploads/round-trip')).toEqual({ sizeBytes: 14 });
    expect((await readAll(await store.get('uploads/round-trip'))).toString()).toBe('hello, storage');

    await store.delete('uploads/round-trip');
    expect(await store.stat('uploads/round-trip')).toBeNull();
    await expect(store.get('uploads/round-trip')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store.delete('uploads/round-trip')).resolves.toBeUndefined(); // gone already: no error
  });

  it('stores an empty object', async () => {
    await store.put('artifacts/run-empty/empty.txt', Readable.from([]), { contentType: 'text/plain' });
    expect(await store.stat('artifacts/run-empty/empty.txt')).toEqual({ sizeBytes: 0 });
    expect((await readAll(await store.get('artifacts/run-empty/empty.txt'))).length).toBe(0);
  });

  it('rejects a missing key with ObjectNotFoundError naming it, also for a prefix of other keys', async () => {
    await store.put('artifacts/run-1/a.txt', text('a'), { contentType: 'text/plain' });
    const err = await store.get('uploads/never-written').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObjectNotFoundError);
    expect(err).toMatchObject({ key: 'uploads/never-written' });
    await expect(store.get('artifacts/run-1')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await store.stat('artifacts/run-1')).toBeNull();
    await store.delete('artifacts/run-1'); // a prefix, not an object: nothing happens
    expect(await store.stat('artifacts/run-1/a.txt')).toEqual({ sizeBytes: 1 });
  });

  it('replaces an object on a second put', async () => {
    await store.put('uploads/overwrite', text('first version, longer'), { contentType: 'text/plain' });
    await store.put('uploads/overwrite', text('second'), { contentType: 'text/plain' });
    expect((await readAll(await store.get('uploads/overwrite'))).toString()).toBe('second');
    expect(await store.stat('uploads/overwrite')).toEqual({ sizeBytes: 6 });
  });

  it('streams a 20 MB put and reads back the same bytes', async () => {
    const size = 20 * 1000 * 1000;
    const expected = await sha256Of(patternSource(size));
    const stored = await putMeasured(store, 'uploads/twenty-mb', patternSource(size), {
      contentType: 'application/octet-stream',
      maxBytes: size,
      exactBytes: size,
    });
    expect(stored).toEqual({ sizeBytes: size, sha256: expected.sha256 });
    expect(await store.stat('uploads/twenty-mb')).toEqual({ sizeBytes: size });
    expect(await sha256Of(await store.get('uploads/twenty-mb'))).toEqual(expected);
  });

  it('stores a body of exactly 8 MiB and of 16 MiB (whole numbers of S3 parts)', async () => {
    for (const size of [8 * MiB, 16 * MiB]) {
      const expected = await sha256Of(patternSource(size));
      await store.put(`uploads/parts-${size}`, patternSource(size), {
        contentType: 'application/octet-stream',
      });
      expect(await sha256Of(await store.get(`uploads/parts-${size}`))).toEqual(expected);
    }
  });

  it.each([
    ['before any byte', 0],
    ['after 1 KiB', 1024],
    ['after 9 MiB (past the first S3 part)', 9 * MiB],
  ])(
    'keeps nothing when the source fails %s, and rejects with the source error itself',
    async (_when, bytes) => {
      const key = `uploads/failing-${bytes}`;
      const clientGone = new Error('client hung up');
      const err = await putMeasured(store, key, patternSource(bytes, { failWith: clientGone }), {
        contentType: 'application/pdf',
        maxBytes: 20 * MiB,
      }).catch((e: unknown) => e);
      expect(err).toBe(clientGone);
      expect(await store.stat(key)).toBeNull();
      expect(await harness.leftovers()).toEqual([]);
    },
  );

  it('keeps nothing when the put fails directly on the store with a failing body', async () => {
    const broken = new Error('socket reset');
    const err = await store
      .put('uploads/direct-fail', patternSource(10 * MiB, { failWith: broken }), {
        contentType: 'text/plain',
      })
      .catch((e: unknown) => e);
    expect(err).toBe(broken);
    expect(await store.stat('uploads/direct-fail')).toBeNull();
    expect(await harness.leftovers()).toEqual([]);
  });

  // Issue 13, finding 1: a request body the client abandons before the store starts reading it (fs
  // makes its directory first) must fail the put, never surface as an uncaught 'error' event.
  it.each([
    ['put', (key: string, body: Readable) => store.put(key, body, { contentType: 'text/csv' })],
    [
      'putMeasured',
      (key: string, body: Readable) =>
        putMeasured(store, key, body, { contentType: 'text/csv', maxBytes: 1000, exactBytes: 1000 }),
    ],
  ])('%s: a body that fails before the store reads it rejects with its error', async (_name, put) => {
    const key = `uploads/abandoned-${_name}`;
    const hungUp = new Error('client hung up before the store read a byte');
    const body = new PassThrough();
    body.write('name,city\n');
    const putting = put(key, body);
    body.destroy(hungUp);
    await expect(putting).rejects.toBe(hungUp);
    expect(await store.stat(key)).toBeNull();
    expect(await harness.leftovers()).toEqual([]);
  });

  it('keeps nothing when the body is longer or shorter than announced', async () => {
    const longer = await putMeasured(store, 'uploads/too-long', patternSource(6 * MiB), {
      contentType: 'application/pdf',
      maxBytes: 5 * MiB,
    }).catch((e: unknown) => e);
    expect(longer).toBeInstanceOf(SizeLimitError);
    expect(longer).toMatchObject({ limit: 5 * MiB });

    const shorter = await putMeasured(store, 'uploads/too-short', patternSource(1000), {
      contentType: 'application/pdf',
      maxBytes: 2000,
      exactBytes: 2000,
    }).catch((e: unknown) => e);
    expect(shorter).toBeInstanceOf(SizeMismatchError);
    expect(shorter).toMatchObject({ received: 1000, expected: 2000 });

    expect(await store.stat('uploads/too-long')).toBeNull();
    expect(await store.stat('uploads/too-short')).toBeNull();
    expect(await harness.leftovers()).toEqual([]);
  });

  it('keeps nothing when onHead refuses the content, and rethrows its error', async () => {
    const notPdf = new Error('content is not application/pdf (it looks like image/png)');
    const source = patternSource(100_000);
    const err = await putMeasured(store, 'uploads/sniffed', source, {
      contentType: 'application/pdf',
      maxBytes: 100_000,
      onHead: () => {
        throw notPdf;
      },
    }).catch((e: unknown) => e);
    expect(err).toBe(notPdf);
    expect(source.destroyed).toBe(true); // the rest of the body is not read
    expect(await store.stat('uploads/sniffed')).toBeNull();
    expect(await harness.leftovers()).toEqual([]);
  });

  it('rejects invalid keys on every method, and does not leave the body hanging', async () => {
    const body = text('x');
    await expect(store.put('../escape', body, { contentType: 'text/plain' })).rejects.toBeInstanceOf(
      InvalidObjectKeyError,
    );
    expect(body.destroyed).toBe(true);
    await expect(store.get('/absolute')).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.stat('a//b')).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.delete('a/./b')).rejects.toBeInstanceOf(InvalidObjectKeyError);
  });
});
