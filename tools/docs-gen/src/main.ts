import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATED_DOCS, renderDoc } from './generate';

/**
 * `pnpm docs:generate`: rewrites the generated regions of docs/architecture.md, docs/db.md and
 * README.md from the code (not `docs`: that is npm's own command, which opens the package's home
 * page). Run from any directory; the docs are found from this file's place.
 */
for (const doc of GENERATED_DOCS) {
  const file = path.join(__dirname, '..', '..', '..', doc.file);
  const before = readFileSync(file, 'utf8');
  const after = renderDoc(doc, before);
  if (after === before) {
    process.stdout.write(`${doc.file}: up to date\n`);
  } else {
    writeFileSync(file, after);
    process.stdout.write(`${doc.file}: generated tables rewritten\n`);
  }
}
