import path from 'node:path';
import { databaseEnv, dataDirEnv, type EnvSource, loadEnv } from '@svc/config';
import {
  displayPath,
  findWorkspaceRoot,
  isProcessAlive,
  type RuntimeInfo,
  readRuntimeInfo,
  resolveDataDir,
  runtimeInfoPath,
} from '@svc/devstack';
import { z } from 'zod';

export const NO_DATABASE_MESSAGE = 'set DATABASE_URL or start the platform with `pnpm start` first';

const adminEnv = z.object({ DATABASE_URL: databaseEnv.DATABASE_URL.optional(), ...dataDirEnv });

/**
 * Where the CLI writes: DATABASE_URL when set (validated: a bad value is an error naming the
 * variable, never silently replaced), else the database of the running `pnpm start` stack
 * (localStack). Throws an Error with operator advice when neither is available.
 */
export function resolveDatabaseUrl(env: EnvSource, cwd: string): string {
  const { DATABASE_URL, DATA_DIR } = loadEnv(adminEnv, env);
  if (DATABASE_URL !== undefined) {
    return DATABASE_URL;
  }
  return localStack(DATA_DIR, cwd).info.databaseUrl;
}

/** The running `pnpm start` stack: its data directory and what its launcher recorded. */
export interface LocalStack {
  dataDir: string;
  info: RuntimeInfo;
}

/** Why no running `pnpm start` was found (for messages): no record, or a record of a dead launcher. */
export interface NoLocalStack {
  missing: string;
}

/**
 * The `pnpm start` stack as recorded in `<DATA_DIR>/runtime.json` (DATA_DIR as the launcher reads
 * it: default `.data`, relative to the workspace root), or why there is none.
 */
export function findLocalStack(dataDirSetting: string, cwd: string): LocalStack | NoLocalStack {
  let root: string | undefined;
  try {
    root = findWorkspaceRoot(cwd);
  } catch {
    // Outside the workspace only an absolute DATA_DIR can say where the launcher's files are.
    if (!path.isAbsolute(dataDirSetting)) {
      return { missing: `not in the workspace, and DATA_DIR (${dataDirSetting}) is relative` };
    }
  }
  const dataDir = root === undefined ? dataDirSetting : resolveDataDir(root, dataDirSetting);
  const file = runtimeInfoPath(dataDir);
  const shown = root === undefined ? file : displayPath(root, file);
  const info = readRuntimeInfo(dataDir);
  if (info === null) return { missing: `no ${shown}` };
  // A launcher that died without cleaning up leaves a stale file pointing at a dead database.
  if (!isProcessAlive(info.pid)) return { missing: `${shown} names launcher pid ${info.pid}, not running` };
  return { dataDir, info };
}

/**
 * The running `pnpm start` stack (findLocalStack). Throws an Error with operator advice when there
 * is none, or when its launcher is no longer running.
 */
export function localStack(dataDirSetting: string, cwd: string): LocalStack {
  const found = findLocalStack(dataDirSetting, cwd);
  if ('info' in found) return found;
  // No record at all needs no detail; a stale one is worth naming.
  throw new Error(
    found.missing.startsWith('no ') || found.missing.startsWith('not in')
      ? NO_DATABASE_MESSAGE
      : `${NO_DATABASE_MESSAGE} (${found.missing})`,
  );
}
