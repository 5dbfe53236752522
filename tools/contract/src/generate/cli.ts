import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { CHANGELOG_PATH, MANIFEST_PATH } from '../paths';
import { manifestText } from './manifest';

export const GENERATE_USAGE = 'usage: pnpm contract generate [--check]\n';

/**
 * `pnpm contract generate`: writes contract/manifest.json from the contracts. `--check`: writes
 * nothing, exits 1 when the committed file differs. Either way it reminds that a changed manifest
 * needs a changelog entry (contract/changelog.json).
 */
export async function runGenerate(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { check: { type: 'boolean', default: false } },
    strict: true,
  });
  const text = manifestText();
  let committed: string | undefined;
  try {
    committed = readFileSync(MANIFEST_PATH, 'utf8');
  } catch {
    committed = undefined;
  }
  if (committed === text) {
    process.stdout.write(`${MANIFEST_PATH} is up to date\n`);
    return 0;
  }
  if (values.check) {
    process.stderr.write(`${MANIFEST_PATH} is not the generated manifest: run \`pnpm contract generate\`\n`);
    return 1;
  }
  mkdirSync(dirname(MANIFEST_PATH), { recursive: true });
  writeFileSync(MANIFEST_PATH, text);
  process.stdout.write(
    `wrote ${MANIFEST_PATH}; add an entry to ${CHANGELOG_PATH} for this change ` +
      '(`pnpm contract changelog add --class <additive|behavioral-risk|breaking> --summary "…"`)\n',
  );
  return 0;
}
