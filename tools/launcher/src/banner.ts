import path from 'node:path';
import { usdFromMicros } from '@svc/contracts';
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

export interface ReadyBannerInput {
  gatewayUrl: string;
  /** As shown to the user: relative to the workspace root (where they type commands), or absolute. */
  keyFile: string;
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
    `OpenAPI:  ${gatewayUrl}/openapi.json`,
    ...input.notes,
    'Stop:     Ctrl-C (twice to force)',
  ]);
}
