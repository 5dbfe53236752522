import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_GATEWAY_PORT, DEFAULT_HEALTH_PORTS, DEFAULT_UPLOADS_DATA_PORT } from '@svc/devstack';
import { serviceEnvs } from '../src/services';

/**
 * README's "Configuration" table is written by hand for operators (defaults as `pnpm start` sets
 * them, launcher-only variables), so it is not generated; this keeps it from silently missing a
 * variable a service reads. The full, generated list is docs/architecture.md's env tables.
 */

const readme = readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

/** Variable names in the first cell of the rows of README's Configuration table. */
function configurationVariables(): Set<string> {
  const start = readme.indexOf('\n## Configuration\n');
  if (start < 0) throw new Error('README has no "## Configuration"');
  const end = readme.indexOf('\n## ', start + 1);
  const rows = readme
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return new Set(
    rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] ?? '')),
  );
}

/** Read by every service but left out of the README on purpose or not yet (a ratchet, as in architecture-doc). */
const NOT_IN_README: readonly string[] = ['NODE_ENV'];

test('README "Configuration" has a row for every variable a service reads', () => {
  const listed = configurationVariables();
  const read = [...new Set(serviceEnvs().flatMap((service) => Object.keys(service.schema.shape)))];
  expect(read.filter((name) => !listed.has(name))).toEqual(NOT_IN_README);
});

/** The Default cell of the Configuration row of `variable`. */
function defaultOf(variable: string): string {
  const row = readme.split('\n').find((line) => line.startsWith(`| \`${variable}\` |`));
  if (row === undefined) throw new Error(`README has no Configuration row for ${variable}`);
  return row.split('|')[2]?.trim() ?? '';
}

test('README "Configuration" states the ports of the one service list', () => {
  const healthPorts = Object.fromEntries(
    [...defaultOf('HEALTH_PORT').matchAll(/([a-z-]+) (\d+)/g)].map((match) => [match[1], Number(match[2])]),
  );
  expect(healthPorts).toEqual(DEFAULT_HEALTH_PORTS);
  expect(defaultOf('PORT')).toBe(`\`${DEFAULT_GATEWAY_PORT}\``);
  expect(defaultOf('DATA_PORT')).toBe(`\`${DEFAULT_UPLOADS_DATA_PORT}\``);
  expect(defaultOf('UPLOADS_URL')).toBe(`\`http://127.0.0.1:${DEFAULT_UPLOADS_DATA_PORT}\``);
});
