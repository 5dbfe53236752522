import path from 'node:path';
import { ConfigError, loadEnv } from '@svc/config';
import { z } from 'zod';
import {
  DEFAULT_STORAGE_DIR,
  FsObjectStore,
  objectStoreConfigFromEnv,
  objectStoreFromEnv,
  refineStorageEnv,
  S3ObjectStore,
  storageEnv,
} from '../src';

const StorageOnly = z.object(storageEnv).superRefine(refineStorageEnv);

describe('storageEnv', () => {
  it('defaults to the fs driver under .data/objects, resolved against the working directory', () => {
    const env = loadEnv(StorageOnly, {});
    expect(env).toMatchObject({
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: DEFAULT_STORAGE_DIR,
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'capability-service',
      S3_CREATE_BUCKET: true,
    });
    expect(objectStoreConfigFromEnv(env, '/srv/app')).toEqual({
      driver: 'fs',
      root: '/srv/app/.data/objects',
    });
    expect(objectStoreConfigFromEnv({ ...env, STORAGE_DIR: '/var/objects' }, '/srv/app')).toEqual({
      driver: 'fs',
      root: '/var/objects',
    });
    const store = objectStoreFromEnv(env);
    expect(store).toBeInstanceOf(FsObjectStore);
    expect(store.driver).toBe('fs');
    expect(store).toMatchObject({ root: path.resolve(DEFAULT_STORAGE_DIR) });
  });

  it('names every S3 variable that STORAGE_DRIVER=s3 needs and lacks', () => {
    let error: unknown;
    try {
      loadEnv(StorageOnly, { STORAGE_DRIVER: 's3', S3_ACCESS_KEY: 'minio' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      problems: [
        { variable: 'S3_ENDPOINT', message: 'required when STORAGE_DRIVER=s3' },
        { variable: 'S3_SECRET_KEY', message: 'required when STORAGE_DRIVER=s3' },
      ],
    });
    // Without the refinement (a service that forgot it), objectStoreFromEnv still refuses.
    const env = loadEnv(z.object(storageEnv), { STORAGE_DRIVER: 's3' });
    expect(() => objectStoreFromEnv(env)).toThrow(/S3_ENDPOINT: required when STORAGE_DRIVER=s3/);
  });

  it('builds the s3 adapter from the S3 variables and never echoes the secret', () => {
    const env = loadEnv(StorageOnly, {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY: 'minio',
      S3_SECRET_KEY: 'not-to-be-shown-1234',
      S3_BUCKET: 'my-bucket',
      S3_CREATE_BUCKET: 'false',
    });
    expect(objectStoreConfigFromEnv(env)).toEqual({
      driver: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'my-bucket',
      accessKey: 'minio',
      secretKey: 'not-to-be-shown-1234',
      createBucket: false,
    });
    expect(objectStoreFromEnv(env)).toBeInstanceOf(S3ObjectStore);
  });

  it('rejects a bad endpoint, bucket name or driver with messages that name the variable', () => {
    expect(() =>
      loadEnv(StorageOnly, {
        STORAGE_DRIVER: 'ftp',
        S3_ENDPOINT: 'ftp://x',
        S3_BUCKET: 'Bad_Bucket',
      }),
    ).toThrow(
      /STORAGE_DRIVER: expected one of fs, s3.*S3_ENDPOINT: must be a http:\/\/ or https:\/\/ URL.*S3_BUCKET/,
    );
  });

  it('refuses an S3 endpoint with a path (path-style requests add their own)', () => {
    expect(
      () =>
        new S3ObjectStore({
          endpoint: 'http://127.0.0.1:9000/minio',
          region: 'us-east-1',
          bucket: 'b-1',
          accessKey: 'a',
          secretKey: 's',
          createBucket: true,
        }),
    ).toThrow(/must not have a path/);
  });
});
