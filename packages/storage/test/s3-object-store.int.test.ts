import { startS3rver, type TestS3rver } from '@svc/s3-test-server';
import { createObjectStore, type ObjectStore, putMeasured, S3_DEFAULT_PART_BYTES } from '../src';
import { MiB, patternSource, readAll } from './helpers';

/** What the S3 adapter sends (the shared contract suite is object-store.int.test.ts). */

function s3Store(s3: TestS3rver, options: { bucket?: string; createBucket?: boolean } = {}): ObjectStore {
  return createObjectStore({
    driver: 's3',
    endpoint: s3.endpoint,
    region: s3.env.S3_REGION,
    bucket: options.bucket ?? s3.bucket,
    accessKey: s3.env.S3_ACCESS_KEY,
    secretKey: s3.env.S3_SECRET_KEY,
    createBucket: options.createBucket ?? true,
  });
}

describe('s3 object store on s3rver', () => {
  let s3: TestS3rver;
  let store: ObjectStore;

  beforeAll(async () => {
    s3 = await startS3rver();
    store = s3Store(s3);
    await store.check();
  });

  afterAll(async () => {
    await s3?.close();
  });

  function requestsAfter(count: number) {
    return s3.requests().slice(count);
  }

  it('sends a body that fits one part as a single PutObject', async () => {
    const before = s3.requests().length;
    await store.put('uploads/small', patternSource(S3_DEFAULT_PART_BYTES - 1), { contentType: 'text/csv' });
    const sent = requestsAfter(before);
    expect(sent.map((r) => r.method)).toEqual(['PUT']);
    expect(sent[0]?.url).toBe(`/${s3.bucket}/uploads/small`);
  });

  it('streams a longer body as a multipart upload, one part at a time', async () => {
    const before = s3.requests().length;
    const size = 20 * 1000 * 1000; // 19.07 MiB: parts of 8, 8 and 3.07 MiB
    await putMeasured(store, 'uploads/large', patternSource(size), {
      contentType: 'application/pdf',
      maxBytes: size,
    });
    const sent = requestsAfter(before);
    expect(sent.filter((r) => r.method === 'POST' && r.url.endsWith('?uploads'))).toHaveLength(1);
    expect(sent.filter((r) => r.method === 'PUT' && r.url.includes('partNumber='))).toHaveLength(3);
    expect(sent.filter((r) => r.method === 'POST' && r.url.includes('uploadId='))).toHaveLength(1); // complete
    expect(await store.stat('uploads/large')).toEqual({ sizeBytes: size });
  });

  it('aborts its multipart upload and deletes the key when the body fails after the first part', async () => {
    const before = s3.requests().length;
    const gone = new Error('client hung up');
    await expect(
      store.put('uploads/aborted', patternSource(17 * MiB, { failWith: gone }), {
        contentType: 'text/plain',
      }),
    ).rejects.toBe(gone);
    const sent = requestsAfter(before);
    const aborts = sent.filter((r) => r.method === 'DELETE' && r.url.includes('uploadId='));
    expect(aborts).toHaveLength(1);
    expect(
      sent.filter((r) => r.method === 'DELETE' && r.url === `/${s3.bucket}/uploads/aborted`),
    ).toHaveLength(1);
    expect(await s3.incompleteUploads()).toEqual([]);
    expect(await store.stat('uploads/aborted')).toBeNull();
  });

  it('stores the content type given to put', async () => {
    await store.put('artifacts/run-2/document.pdf', patternSource(10), { contentType: 'application/pdf' });
    const response = await fetch(`${s3.endpoint}/${s3.bucket}/artifacts/run-2/document.pdf`, {
      method: 'HEAD',
    });
    // s3rver serves objects without signature checks on GET/HEAD of a bucket it owns.
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect((await readAll(await store.get('artifacts/run-2/document.pdf'))).length).toBe(10);
  });
});

describe('s3 object store check()', () => {
  let s3: TestS3rver;

  beforeAll(async () => {
    s3 = await startS3rver({ createBucket: false });
  });

  afterAll(async () => {
    await s3?.close();
  });

  it('fails on a missing bucket when S3_CREATE_BUCKET is off, naming the bucket', async () => {
    await expect(s3Store(s3, { createBucket: false }).check()).rejects.toThrow(
      `S3 bucket ${s3.bucket} does not exist (S3_CREATE_BUCKET is off)`,
    );
  });

  it('creates a missing bucket, once, and then answers', async () => {
    const store = s3Store(s3, { createBucket: true });
    await store.check();
    await store.check(); // exists now: no second create
    await s3Store(s3, { createBucket: false }).check();
    expect(s3.requests().filter((r) => r.method === 'PUT' && r.url === `/${s3.bucket}`)).toHaveLength(1);
    await store.put('uploads/after-create', patternSource(3), { contentType: 'text/plain' });
    expect(await store.stat('uploads/after-create')).toEqual({ sizeBytes: 3 });
  });
});
