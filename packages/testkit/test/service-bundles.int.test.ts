import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleEntries, findWorkspaceRoot } from '@svc/devstack';

// The bundles the integration tier's stacks run (service-bundles.ts) must behave as the sources do
// under tsx: a file's own __dirname/__filename, every other package loaded from where node resolves
// it from the importing file (pnpm's strict layout), workspace code inlined, names kept.

const root = findWorkspaceRoot(__dirname);
const fixtureDir = join(__dirname, 'fixtures', 'bundle-probe');
const entry = join(fixtureDir, 'entry.ts');
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'svc-bundle-test-'));
  await bundleEntries(root, { probe: entry }, outDir);
});

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

describe('service bundles', () => {
  it('run under plain node as their sources do under tsx', () => {
    const shown = JSON.parse(
      execFileSync(process.execPath, [join(outDir, 'probe.js')], { encoding: 'utf8' }),
    );
    expect(shown).toEqual({
      dirname: fixtureDir,
      filename: entry,
      zodFile: createRequire(entry).resolve('zod'),
      parsed: { a: 1 },
      errorName: 'NotFoundError',
      className: 'NotFoundError',
    });
  });

  it('inline the workspace and require any other package by the absolute path node resolved', () => {
    const bundle = readFileSync(join(outDir, 'probe.js'), 'utf8');
    expect(bundle).not.toMatch(/require\("@svc\//);
    expect(bundle).toContain(`require(${JSON.stringify(createRequire(entry).resolve('zod'))})`);
  });
});
