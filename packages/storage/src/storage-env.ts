import path from 'node:path';
import { booleanFlag, ConfigError, oneOf, pathVar, urlVar } from '@svc/config';
import { z } from 'zod';
import { createObjectStore, type ObjectStoreConfig } from './create-object-store';
import type { ObjectStore } from './object-store';

/** Where the fs adapter keeps objects when STORAGE_DIR is unset; relative to the process's cwd. */
export const DEFAULT_STORAGE_DIR = '.data/objects';

/** S3 bucket naming (3-63 lowercase letters, digits, `.`, `-`; a letter or digit at both ends). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * The object store's part of a service's env schema (same style as the @svc/config fragments):
 * spread it into `z.object({...})`, and add `.superRefine(refineStorageEnv)` so that missing S3
 * settings are reported with the other variables at start-up. objectStoreFromEnv checks them too.
 */
export const storageEnv = {
  // `fs`: files under STORAGE_DIR (the embedded default); `s3`: any S3 API (MinIO, AWS).
  STORAGE_DRIVER: oneOf(['fs', 's3'])
    .default('fs')
    .describe('`fs`: files under STORAGE_DIR; `s3`: any S3 API (MinIO, AWS).'),
  // fs only; relative paths are resolved against the process's working directory.
  STORAGE_DIR: pathVar(DEFAULT_STORAGE_DIR).describe(
    'fs only: the directory of the objects, relative to the working directory.',
  ),
  // s3 only (required then): `http(s)://host[:port]`, no path.
  S3_ENDPOINT: urlVar(['http:', 'https:'])
    .optional()
    .describe('s3 only (required then): `http(s)://host[:port]`, no path.'),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'expected a region name such as us-east-1')
    .default('us-east-1')
    .describe('s3 only: the region name.'),
  S3_BUCKET: z
    .string()
    .regex(BUCKET_NAME, 'expected an S3 bucket name (3-63 lowercase letters, digits, . or -)')
    .default('capability-service')
    .describe('s3 only: the bucket (3-63 lowercase letters, digits, . or -).'),
  // s3 only (required then). Secrets: z.string() never echoes a value in its messages.
  S3_ACCESS_KEY: z
    .string()
    .optional()
    .describe('s3 only (required then): the access key (a secret, never shown).'),
  S3_SECRET_KEY: z
    .string()
    .optional()
    .describe('s3 only (required then): the secret key (a secret, never shown).'),
  // s3 only: create the bucket at start (readiness check) when it is missing.
  S3_CREATE_BUCKET: booleanFlag(true).describe(
    's3 only: create the bucket at start (readiness check) when it is missing.',
  ),
};

const storageEnvObject = z.object(storageEnv);
export type StorageEnv = z.output<typeof storageEnvObject>;

const S3_REQUIRED = ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const;

/** Cross-field rule: the variables STORAGE_DRIVER=s3 needs and lacks, each with its message. */
export function storageEnvProblems(env: StorageEnv): { variable: string; message: string }[] {
  if (env.STORAGE_DRIVER !== 's3') return [];
  return S3_REQUIRED.filter((name) => env[name] === undefined).map((variable) => ({
    variable,
    message: 'required when STORAGE_DRIVER=s3',
  }));
}

/** For `z.object({...storageEnv, ...}).superRefine(refineStorageEnv)`: reports storageEnvProblems. */
export function refineStorageEnv(env: StorageEnv, ctx: z.RefinementCtx): void {
  for (const problem of storageEnvProblems(env)) {
    ctx.addIssue({ code: 'custom', path: [problem.variable], message: problem.message });
  }
}

/** The ObjectStoreConfig an env describes; throws ConfigError naming missing S3 variables. */
export function objectStoreConfigFromEnv(env: StorageEnv, cwd: string = process.cwd()): ObjectStoreConfig {
  if (env.STORAGE_DRIVER === 'fs') return { driver: 'fs', root: path.resolve(cwd, env.STORAGE_DIR) };
  const { S3_ENDPOINT: endpoint, S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey } = env;
  if (endpoint === undefined || accessKey === undefined || secretKey === undefined) {
    throw new ConfigError(storageEnvProblems(env));
  }
  return {
    driver: 's3',
    endpoint,
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    accessKey,
    secretKey,
    createBucket: env.S3_CREATE_BUCKET,
  };
}

/** createObjectStore(objectStoreConfigFromEnv(env)). No I/O: call check() (readiness) next. */
export function objectStoreFromEnv(env: StorageEnv, cwd?: string): ObjectStore {
  return createObjectStore(objectStoreConfigFromEnv(env, cwd));
}
