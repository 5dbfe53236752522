import path from 'node:path';
import { usdFromMicros } from '@svc/contracts';
import { type PostgresHandle, redactUrl } from '@svc/devstack';
import { DEV_ACCOUNT_ROLE, type DevAccountResult } from './dev-account';
import { DEV_BALANCE_MICROS, DEV_CLIENT_NAME, type DevKeyResult } from './dev-key';

// The two framed blocks `pnpm start` prints: the development key (only when it is made) and the
// ready banner with the URL, a first request and where the key lives.

const RULE = '═'.repeat(78);

function framed(lines: readonly string[]): string[] {
  return ['', RULE, ...lines.map((line) => (line === '' ? '' : `  ${line}`)), RULE, ''];
}

/** Lines about the dev key: the key itself once, when just made; afterwards only where it is. */
export function devKeyLines(result: DevKeyResult, keyFile: string): string[] {
  if (result.status === 'existing') {
    return [`Development API key: saved in ${keyFile} (not shown again)`];
  }
  const balance = result.credited
    ? `opening balance ${usdFromMicros(DEV_BALANCE_MICROS)} USD, no spend cap`
    : 'existing wallet kept';
  return framed([
    `Development API key (shown once, saved to ${keyFile}):`,
    '',
    `    ${result.key.api_key}`,
    '',
    `client "${DEV_CLIENT_NAME}" (${result.key.client_id}), every scope, ${balance}.`,
    ...(result.replacedStale ? ['(the key saved before is unknown to this database and was replaced)'] : []),
  ]);
}

/** The dashboard's sign-in page on the gateway. */
export function signInUrl(gatewayUrl: string): string {
  return `${gatewayUrl}/dashboard/sign-in`;
}

/** Lines about the dev dashboard account: its password once, when just made; afterwards where it is. */
export function devAccountLines(result: DevAccountResult, accountFile: string, gatewayUrl: string): string[] {
  const { email } = result.account;
  if (result.status === 'existing') {
    return [`Development dashboard account: ${email}, password saved in ${accountFile} (not shown again)`];
  }
  return framed([
    `Development dashboard account (password shown once, saved to ${accountFile}):`,
    '',
    `    Sign in:  ${signInUrl(gatewayUrl)}`,
    `    Email:    ${email}`,
    `    Password: ${result.account.password}`,
    '',
    `${DEV_ACCOUNT_ROLE} of client "${DEV_CLIENT_NAME}" (${result.account.client_id}).`,
    ...(result.status === 'reset'
      ? ['(the password saved before no longer signed in and was replaced)']
      : []),
  ]);
}

export interface ReadyBannerInput {
  gatewayUrl: string;
  /** As shown to the user: relative to the workspace root (where they type commands), or absolute. */
  keyFile: string;
  /** Where the dev dashboard account's password is, shown like keyFile (absent: no dashboard line). */
  accountFile?: string;
  /** Where the embedded database or Redis live, when we started them. */
  notes: readonly string[];
}

export function readyLines(input: ReadyBannerInput): string[] {
  const { gatewayUrl, keyFile } = input;
  // require() needs `./` for a relative path (a bare name would be looked up in node_modules).
  const required = path.isAbsolute(keyFile) ? keyFile : `./${keyFile}`;
  return framed([
    `Capability service is ready at ${gatewayUrl}`,
    '',
    'Try it:',
    `  curl '${gatewayUrl}/api/capabilities?q=certificate+transparency'`,
    `  curl -H "Authorization: Bearer $(node -p "require('${required}').api_key")" ${gatewayUrl}/api/account/whoami`,
    '',
    `API key:  ${keyFile}`,
    ...(input.accountFile === undefined
      ? []
      : [`Dashboard: ${signInUrl(gatewayUrl)} (dev@localhost, password in ${input.accountFile})`]),
    `OpenAPI:  ${gatewayUrl}/openapi.json`,
    ...input.notes,
    'Stop:     Ctrl-C (twice to force)',
  ]);
}

/**
 * The banner's database line; for the embedded server, which port and why when it is not 5433
 * (issue 23: it moves off a taken 5433 and keeps its port per data directory).
 */
export function databaseNote(
  postgres: Pick<PostgresHandle, 'url' | 'embedded' | 'portNote'>,
  dataDir: string,
): string {
  if (!postgres.embedded) return `Database: ${redactUrl(postgres.url)}`;
  const port = postgres.portNote === undefined ? '' : `${postgres.portNote}; `;
  return `Database: ${redactUrl(postgres.url)} (embedded, ${port}data in ${dataDir})`;
}
