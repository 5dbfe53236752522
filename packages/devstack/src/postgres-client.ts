import { Client } from 'pg';
import { sleep } from './net';
import { redactUrl, scrubSecret, urlPassword, withDatabase } from './urls';

/** Database names we create or drop are spliced into SQL as identifiers: keep them boring. */
const DATABASE_NAME = /^[a-z0-9_]+$/;

/** Network-level failures worth retrying while a server is starting (57P03: "the database system is starting up"). */
const RETRYABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  '57P03',
]);

export function assertDatabaseName(name: string): void {
  if (!DATABASE_NAME.test(name)) {
    throw new Error(`invalid database name ${JSON.stringify(name)}: must match ${DATABASE_NAME}`);
  }
}

export function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string')
    return err.code;
  return undefined;
}

function errorMessage(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return errorMessage(err.errors[0]);
  return err instanceof Error ? err.message : String(err);
}

/** Connects, runs `SELECT 1`, disconnects. Each step is bounded by `timeoutMs`. */
async function selectOne(url: string, timeoutMs: number): Promise<void> {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // A server that dies mid-check emits 'error' on the client; without a listener that would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** One quick attempt: true when the server accepts the URL's credentials and answers `SELECT 1`. */
export async function pingPostgres(url: string, timeoutMs = 1500): Promise<boolean> {
  try {
    await selectOne(url, timeoutMs);
    return true;
  } catch {
    return false;
  }
}

export interface CheckPostgresOptions {
  /** Name of the setting the URL came from, used in the error's advice (default `DATABASE_URL`). */
  variableName?: string;
  /** How long to keep retrying connection-level failures, in ms (default 5000). */
  retryForMs?: number;
}

export type CheckPostgresResult = 'ok' | 'missing-database';

/**
 * Checks that the PostgreSQL server behind `url` answers, retrying connection failures for
 * `retryForMs` (a server that is still starting). Reports a missing database instead of failing, so
 * the caller can create it. Any other failure throws an Error that says how to fix it and never
 * contains the password.
 */
export async function checkPostgres(
  url: string,
  options: CheckPostgresOptions = {},
): Promise<CheckPostgresResult> {
  const variableName = options.variableName ?? 'DATABASE_URL';
  assertPostgresUrl(url, variableName);
  const deadline = Date.now() + (options.retryForMs ?? 5000);
  for (;;) {
    try {
      await selectOne(url, 2000);
      return 'ok';
    } catch (err) {
      const code = errorCode(err);
      if (code === '3D000') return 'missing-database';
      const retryable =
        code === undefined ? /timeout|terminated/i.test(errorMessage(err)) : RETRYABLE_CODES.has(code);
      if (!retryable || Date.now() >= deadline) throw new Error(explainFailure(url, err, variableName));
      await sleep(500);
    }
  }
}

function assertPostgresUrl(url: string, variableName: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error(
      `${variableName} is not a valid URL; expected postgres://user:password@host:5432/database`,
    );
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new Error(`${variableName} must be a postgres:// URL, got ${redactUrl(url)}`);
  }
}

/** The error text for an unusable server: what failed, where (password redacted), and the fix. */
export function explainFailure(url: string, err: unknown, variableName: string): string {
  const detail = scrubSecret(errorMessage(err), urlPassword(url));
  const code = errorCode(err);
  const fallback = `or unset ${variableName} to fall back to an embedded PostgreSQL`;
  let advice: string;
  if (code === 'ECONNREFUSED') {
    advice = `Nothing listens there: start PostgreSQL (e.g. \`pg_ctlcluster <version> main start\` or \`docker compose up -d postgres\`), fix the host/port in ${variableName}, ${fallback}.`;
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    advice = `The host name does not resolve: fix the host in ${variableName}, ${fallback}.`;
  } else if (code === '28P01' || code === '28000' || /password|SASL|authentication/i.test(detail)) {
    advice = `The server refused the credentials: fix the user/password in ${variableName} (or the server's pg_hba.conf).`;
  } else {
    advice = `Check that the server is up and that ${variableName} names the right host, port and database, ${fallback}.`;
  }
  return `PostgreSQL at ${redactUrl(url)} (${variableName}) is not usable: ${detail}${code ? ` [${code}]` : ''}. ${advice}`;
}

async function withAdminClient<T>(adminUrl: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface CreateDatabaseOptions {
  /** Succeed quietly when the database already exists (default false: a name clash is an error). */
  ifNotExists?: boolean;
}

/**
 * `CREATE DATABASE name` on the server behind `adminUrl` (a URL to any database the user may connect
 * to, usually `postgres`). Returns true when it created the database, false when `ifNotExists` found it.
 */
export async function createDatabase(
  adminUrl: string,
  name: string,
  options: CreateDatabaseOptions = {},
): Promise<boolean> {
  assertDatabaseName(name);
  return withAdminClient(adminUrl, async (client) => {
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
      return true;
    } catch (err) {
      // 42P04 duplicate_database: also covers two processes racing to create the same database.
      if (options.ifNotExists && errorCode(err) === '42P04') return false;
      throw err;
    }
  });
}

/** `DROP DATABASE IF EXISTS name WITH (FORCE)`: terminates leftover connections (PostgreSQL ≥ 13). */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  assertDatabaseName(name);
  await withAdminClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  });
}

/**
 * Makes sure the database named in `url` exists, creating it through the server's `postgres`
 * database when it does not. The caller has already seen the server answer.
 */
export async function ensureDatabaseOf(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  await createDatabase(withDatabase(url, 'postgres'), name, { ifNotExists: true });
}
