import { readFileSync } from 'node:fs';
import path from 'node:path';
import { apiOperations, operationLabel, operationsByScope } from '@svc/contracts';

/**
 * The README's Endpoints and Scopes tables are written by hand for people; the operations (and the
 * gateway's scope checks, routes.test.ts) are the truth. This keeps the two from drifting: every
 * operation has a row with its auth, and every scope row names exactly its operations.
 */

const readme = readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

/** The rows (cells, trimmed) of the first Markdown table after `heading`. */
function tableAfter(heading: string): string[][] {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no "${heading}"`);
  const lines = readme.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** `METHOD /path` items written in backticks in a cell, query strings dropped. */
function labelsIn(cell: string): string[] {
  return [...cell.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE) [^`?]+)[^`]*`/g)].flatMap((m) =>
    m[1] ? [m[1]] : [],
  );
}

describe('README tables', () => {
  test('every operation has an Endpoints row with the auth it declares', () => {
    const rows = tableAfter('## Endpoints');
    for (const op of apiOperations) {
      const label = operationLabel(op);
      const row = rows.find((cells) => labelsIn(cells[0] ?? '').includes(label));
      const auth =
        op.auth.kind === 'public'
          ? 'none'
          : op.auth.kind === 'upload-token'
            ? 'upload token'
            : op.auth.scopes.length === 0
              ? 'any valid key'
              : op.auth.scopes.map((scope) => `\`${scope}\``).join(', ');
      expect({ label, auth: row?.[1] }).toEqual({ label, auth });
    }
  });

  test('every scope row of the Scopes table names exactly the operations that require it', () => {
    const rows = tableAfter('### Scopes');
    for (const { scope, operations } of operationsByScope(apiOperations)) {
      if (operations.length === 0) continue;
      const row = rows.find((cells) => cells[0] === `\`${scope}\``);
      expect({ scope, listed: labelsIn(row?.[1] ?? '').sort() }).toEqual({
        scope,
        listed: [...operations].sort(),
      });
    }
    // A scope that guards nothing on REST is said to, not silently left out.
    const read = rows.find((cells) => cells[0] === '`capabilities:read`');
    expect(read?.[1]).toContain('nothing on REST yet');
  });
});
