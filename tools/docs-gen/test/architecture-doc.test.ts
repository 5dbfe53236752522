import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ARCHITECTURE_DOC, renderArchitectureDoc, undescribed } from '../src/generate';

/**
 * docs/architecture.md's tables of queues, RPC methods, events, errors and environment variables
 * are generated from the code (tools/docs-gen). This fails when the committed doc is not what the
 * generator writes, i.e. when someone changed a catalog, an error class or an env schema without
 * running `pnpm docs:generate`, or edited a generated table by hand.
 */

const file = path.join(__dirname, '..', '..', '..', ARCHITECTURE_DOC);

/** The first line where two texts differ, for a message a person can act on. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const index = a.findIndex((line, i) => line !== b[i]);
  const at = index < 0 ? a.length : index;
  return `line ${at + 1}:\n  committed: ${a[at] ?? '(end of file)'}\n  generated: ${b[at] ?? '(end of file)'}`;
}

describe(ARCHITECTURE_DOC, () => {
  test('its generated tables are what the code says (else run `pnpm docs:generate`)', () => {
    const committed = readFileSync(file, 'utf8');
    const generated = renderArchitectureDoc(committed);
    if (generated !== committed) {
      throw new Error(
        `${ARCHITECTURE_DOC} differs from the code: run \`pnpm docs:generate\` and commit the result.\n` +
          firstDifference(committed, generated),
      );
    }
  });

  // Else its row would say "—": the description lives in the code (`.describe()`, `description`).
  test('every env variable, job, RPC method and event has a description in the code', () => {
    expect(undescribed()).toEqual([]);
  });
});
