import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** What a service's `defineService({ needs })` asks the kit for, as written in its main.ts. */
export interface DeclaredNeeds {
  database: boolean;
  objectStore: boolean;
  bus: boolean;
}

function isDefineServiceCall(node: ts.Node): node is ts.CallExpression {
  return (
    ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineService'
  );
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const member of object.properties) {
    if (ts.isPropertyAssignment(member) && ts.isIdentifier(member.name) && member.name.text === name) {
      return member.initializer;
    }
  }
  return undefined;
}

/**
 * The `needs` of the one `defineService({...})` call in `file` (a service's main.ts), read from its
 * syntax tree without running it (running it would start the service). Throws when the call or a
 * literal `needs` object is missing, so a main.ts written another way is seen, not skipped.
 */
export function declaredNeeds(file: string): DeclaredNeeds {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (isDefineServiceCall(node)) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const where = path.relative(process.cwd(), file);
  const declaration = calls.length === 1 ? calls[0]?.arguments[0] : undefined;
  if (declaration === undefined || !ts.isObjectLiteralExpression(declaration)) {
    throw new Error(`${where}: expected one defineService({...}) call, found ${calls.length}`);
  }
  const needs = property(declaration, 'needs');
  if (needs === undefined || !ts.isObjectLiteralExpression(needs)) {
    throw new Error(`${where}: defineService's needs must be an object literal`);
  }
  const flag = (name: string): boolean => property(needs, name)?.kind === ts.SyntaxKind.TrueKeyword;
  return {
    database: flag('database'),
    objectStore: flag('objectStore'),
    bus: property(needs, 'bus') !== undefined,
  };
}
