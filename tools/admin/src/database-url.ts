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

/**
 * The `pnpm start` stack as recorded in `<DATA_DIR>/runtime.json` (DATA_DIR as the launcher reads
 * it: default `.data`, relative to the workspace root). Throws an Error with operator advice when
 * there is none, or when its launcher is no longer running.
 */
export function localStack(dataDirSetting: string, cwd: string): LocalStack {
  let root: string | undefined;
  try {
    root = findWorkspaceRoot(cwd);
  } catch {
    // Outside the workspace only an absolute DATA_DIR can say where the launcher's files are.
    if (!path.isAbsolute(dataDirSetting)) throw new Error(NO_DATABASE_MESSAGE);
  }
  const dataDir = root === undefined ? dataDirSetting : resolveDataDir(root, dataDirSetting);
  const info = readRuntimeInfo(dataDir);
  if (info === null) {
    throw new Error(NO_DATABASE_MESSAGE);
  }
  // A launcher that died without cleaning up leaves a stale file pointing at a dead database.
  if (!isProcessAlive(info.pid)) {
    const file = runtimeInfoPath(dataDir);
    throw new Error(
      `${NO_DATABASE_MESSAGE} (${root === undefined ? file : displayPath(root, file)} names launcher pid ${info.pid}, not running)`,
    );
  }
  return { dataDir, info };
}
