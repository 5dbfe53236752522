import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATED_DOCS, renderDoc, undescribed } from '../src/generate';

/**
 * The generated regions of docs/architecture.md (services, transports, database tables, queues, RPC
 * methods, events, errors, environment variables), docs/db.md (schemas) and README.md (services)
 * are written from the code (tools/docs-gen). This fails when a committed doc is not what the
 * generator writes, i.e. when someone changed the service list, schema.prisma, a catalog, an error
 * class or an env schema without running `pnpm docs:generate`, or edited a generated table by hand.
 */

const root = path.join(__dirname, '..', '..', '..');

/** The first line where two texts differ, for a message a person can act on. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const index = a.findIndex((line, i) => line !== b[i]);
  const at = index < 0 ? a.length : index;
  return `line ${at + 1}:\n  committed: ${a[at] ?? '(end of file)'}\n  generated: ${b[at] ?? '(end of file)'}`;
}

describe.each(GENERATED_DOCS.map((doc) => [doc.file, doc] as const))('%s', (file, doc) => {
  test('its generated tables are what the code says (else run `pnpm docs:generate`)', () => {
    const committed = readFileSync(path.join(root, file), 'utf8');
    const generated = renderDoc(doc, committed);
    if (generated !== committed) {
      throw new Error(
        `${file} differs from the code: run \`pnpm docs:generate\` and commit the result.\n` +
          firstDifference(committed, generated),
      );
    }
  });
});

// Else its row would say "—": the description lives in the code (`.describe()`, `description`).
test('every env variable, job, RPC method and event has a description in the code', () => {
  expect(undescribed()).toEqual([]);
});
