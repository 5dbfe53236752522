import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiOperations } from '@svc/contracts';
import ts from 'typescript';

/**
 * Each REST endpoint is declared once, as its operation in the contracts, and the gateway serves it
 * from that declaration (routing/): its matcher, rate-limit classes, contract headers, links and
 * `Location`s all take the path from the operation. So no string in the gateway's code spells an
 * operation's path: a second path table, kept in step by hand, is what this guards against.
 * Comments may name paths; strings may not.
 */

const SRC = path.join(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The text of every string literal and template part of a file (comments excluded). */
function stringsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node))
      found.push(node.text);
    if (ts.isTemplateTail(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `/api`, `/mcp`, `/healthz`, …: the first segment of every operation's path. */
const ROOTS = [...new Set(apiOperations.map((op) => `/${op.path.split('/')[1] ?? ''}`))];

test('no string of the gateway spells the path of an operation', () => {
  expect(ROOTS).toEqual(expect.arrayContaining(['/api', '/mcp', '/healthz', '/openapi.json']));
  const offending = sourceFiles(SRC).flatMap((file) =>
    stringsOf(file)
      .filter((text) => ROOTS.some((root) => text === root || text.startsWith(`${root}/`)))
      .map((text) => `${path.relative(SRC, file)}: '${text}'`),
  );
  expect(offending).toEqual([]);
});
