import { databaseEnv, type EnvSource, loadEnv } from '@svc/config';
import { findWorkspaceRoot, isProcessAlive, readRuntimeInfo } from '@svc/devstack';
import { z } from 'zod';

export const NO_DATABASE_MESSAGE = 'set DATABASE_URL or start the platform with `pnpm start` first';

const adminEnv = z.object({ DATABASE_URL: databaseEnv.DATABASE_URL.optional() });

/**
 * Where the CLI writes: DATABASE_URL when set (validated: a bad value is an error naming the
 * variable, never silently replaced), else the database of the running `pnpm start` stack as
 * recorded in `<workspace root>/.data/runtime.json`. Throws an Error with operator advice when
 * neither is available.
 */
export function resolveDatabaseUrl(env: EnvSource, cwd: string): string {
  const { DATABASE_URL } = loadEnv(adminEnv, env);
  if (DATABASE_URL !== undefined) {
    return DATABASE_URL;
  }
  let root: string;
  try {
    root = findWorkspaceRoot(cwd);
  } catch {
    throw new Error(NO_DATABASE_MESSAGE);
  }
  const info = readRuntimeInfo(root);
  if (info === null) {
    throw new Error(NO_DATABASE_MESSAGE);
  }
  // A launcher that died without cleaning up leaves a stale file pointing at a dead database.
  if (!isProcessAlive(info.pid)) {
    throw new Error(
      `${NO_DATABASE_MESSAGE} (.data/runtime.json names launcher pid ${info.pid}, not running)`,
    );
  }
  return info.databaseUrl;
}
