import { FsObjectStore, type FsObjectStoreOptions } from './fs-object-store';
import type { ObjectStore } from './object-store';
import { S3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store';

/** Which adapter, with its settings (objectStoreFromEnv builds this from STORAGE_* / S3_*). */
export type ObjectStoreConfig =
  | ({ driver: 'fs' } & FsObjectStoreOptions)
  | ({ driver: 's3' } & S3ObjectStoreOptions);

/** The object store for `config`. Makes no I/O: call check() to see that it answers. */
export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  if (config.driver === 'fs') return new FsObjectStore({ root: config.root });
  const { driver: _driver, ...options } = config;
  return new S3ObjectStore(options);
}
