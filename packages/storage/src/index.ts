// @svc/storage: object storage for uploads and artifacts (docs/architecture.md, docs/decisions.md U3).
export { createObjectStore, type ObjectStoreConfig } from './create-object-store';
export { FS_TEMP_DIR, FsObjectStore, type FsObjectStoreOptions } from './fs-object-store';
export {
  DEFAULT_HEAD_BYTES,
  MeasureStream,
  type MeasureStreamOptions,
  measureStream,
} from './measure-stream';
export {
  assertObjectKey,
  InvalidObjectKeyError,
  MAX_OBJECT_KEY_LENGTH,
  objectKeyProblem,
} from './object-key';
export { ObjectNotFoundError, type ObjectStore, type PutOptions } from './object-store';
export { type MeasuredObject, type PutMeasuredOptions, putMeasured } from './put-measured';
export {
  S3_DEFAULT_PART_BYTES,
  S3_MIN_PART_BYTES,
  S3ObjectStore,
  type S3ObjectStoreOptions,
} from './s3-object-store';
export { SizeLimitError, SizeMismatchError } from './size-errors';
export {
  DEFAULT_STORAGE_DIR,
  objectStoreConfigFromEnv,
  objectStoreFromEnv,
  refineStorageEnv,
  type StorageEnv,
  storageEnv,
  storageEnvProblems,
} from './storage-env';
export { holdStreamErrors } from './stream-errors';
