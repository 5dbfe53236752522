import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Where platform code comments name a capability. The platform (services/, packages/ but the
 * capabilities themselves) runs whatever the catalog declares; a comment that lists capabilities by
 * name is out of date as soon as one is added, so platform comments say what a capability declares
 * (its runtime, its probe) instead. Only comments are read: wire strings and code are not.
 */

/** A comment naming a capability: file (relative to the root), line, slug. */
export interface CommentHit {
  file: string;
  line: number;
  slug: string;
}

const SKIPPED_DIRS = new Set(['node_modules', 'generated', 'test', 'dist']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(full);
    const isSource = /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name);
    return isSource ? [full] : [];
  });
}

/** The comments of one TypeScript source, with the line each starts on (read from its syntax tree). */
export function commentsOf(text: string, jsx: boolean): { line: number; text: string }[] {
  const source = ts.createSourceFile(
    jsx ? 'file.tsx' : 'file.ts',
    text,
    ts.ScriptTarget.Latest,
    false,
    jsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const seen = new Map<number, string>();
  const collect = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen]
    .sort(([a], [b]) => a - b)
    .map(([pos, comment]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
}

/** Every comment under `dirs` (relative to `root`) that names one of `slugs` as a word. */
export function capabilityNamesInComments(
  root: string,
  dirs: readonly string[],
  slugs: readonly string[],
): CommentHit[] {
  const patterns = slugs.map((slug) => ({ slug, pattern: new RegExp(`(?<![\\w/.-])${slug}(?![\\w-])`) }));
  return dirs
    .flatMap((dir) => sourceFiles(path.join(root, dir)))
    .flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      // Parsed only when a slug occurs at all (most files name none): the scan stays fast.
      if (!slugs.some((slug) => text.includes(slug))) return [];
      return commentsOf(text, file.endsWith('x')).flatMap((comment) =>
        patterns
          .filter(({ pattern }) => pattern.test(comment.text))
          .map(({ slug }) => ({ file: path.relative(root, file), line: comment.line, slug })),
      );
    });
}
