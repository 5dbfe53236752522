// The db CLIs' environment, parsed once with @svc/config (exits naming the bad variable).
import { databaseEnv, loadEnvOrExit, urlVar } from '@svc/config';
import { z } from 'zod';

/** Local development server (same default as the test harness). */
export const LOCAL_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** `migrate`: the database to migrate, required. */
export function migrateEnv(): { DATABASE_URL: string } {
  return loadEnvOrExit(z.object(databaseEnv));
}

/** `migrate:new`: only a server to create a throw-away shadow database on, so a default is fine. */
export function migrateNewEnv(): { DATABASE_URL: string } {
  return loadEnvOrExit(z.object({ DATABASE_URL: urlVar(['postgres:', 'postgresql:'], LOCAL_SERVER_URL) }));
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** postgres://user:secret@host/db → postgres://user:***@host/db, for log lines. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
