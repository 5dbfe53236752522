import fs from 'node:fs';
import path from 'node:path';

// docs/architecture.md's layout block lists every workspace package and tool by folder: a package
// added or removed without the page following fails here (issue 24 item 6: docs that cannot drift).

const ROOT = path.resolve(__dirname, '../../..');

/** Folders under packages/ and tools/ that hold a workspace package (a package.json). */
function workspaceFolders(): string[] {
  return ['packages', 'tools'].flatMap((parent) =>
    fs
      .readdirSync(path.join(ROOT, parent), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && fs.existsSync(path.join(ROOT, parent, entry.name, 'package.json')),
      )
      .map((entry) => `${parent}/${entry.name}`),
  );
}

/** The folders the layout block names at the start of a line (`packages/bus   …`). */
function documentedFolders(): string[] {
  const page = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  return [...page.matchAll(/^((?:packages|tools)\/[a-z0-9-]+)\s/gm)].map((match) => match[1] ?? '');
}

test('docs/architecture.md lists exactly the workspace packages and tools', () => {
  expect([...new Set(documentedFolders())].sort()).toEqual(workspaceFolders().sort());
});
