import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARCHITECTURE_DOC, renderArchitectureDoc } from './generate';

/**
 * `pnpm docs:generate`: rewrites the generated tables of docs/architecture.md from the code (not
 * `docs`: that is npm's own command, which opens the package's home page). Run from any directory;
 * the doc is found from this file's place.
 */
const file = path.join(__dirname, '..', '..', '..', ARCHITECTURE_DOC);
const before = readFileSync(file, 'utf8');
const after = renderArchitectureDoc(before);
if (after === before) {
  process.stdout.write(`${ARCHITECTURE_DOC}: up to date\n`);
} else {
  writeFileSync(file, after);
  process.stdout.write(`${ARCHITECTURE_DOC}: generated tables rewritten\n`);
}
