// Per-suite databases for this package's integration tests (the shared harness, @svc/testkit,
// builds on @svc/db, so these tests cannot use it).
import { randomBytes } from 'node:crypto';

/** Server the integration harness (jest/integration-setup.ts) found or started. */
export function adminUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** URL of a database on the test server with a fresh, unique name (not created yet). */
export function uniqueDatabaseUrl(label: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/svc_db_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
  return url.toString();
}
