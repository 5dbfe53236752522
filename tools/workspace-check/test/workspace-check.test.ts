import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runWorkspaceCheck } from '../src/cli';

/** The workspace this file is in. */
const WORKSPACE_ROOT = path.resolve(__dirname, '..', '..', '..');

async function check(root: string) {
  let stdout = '';
  let stderr = '';
  const code = await runWorkspaceCheck([root], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

const tempDirs: string[] = [];

/** A workspace of `packages/<name>` folders in a temp directory; `files` maps extra relative paths to contents. */
function makeWorkspace(manifests: Record<string, object>, files: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), 'workspace-check-'));
  tempDirs.push(root);
  writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'fixture-root', private: true }));
  for (const [name, manifest] of Object.entries(manifests)) {
    mkdirSync(path.join(root, 'packages', name), { recursive: true });
    writeFileSync(path.join(root, 'packages', name, 'package.json'), JSON.stringify({ name, ...manifest }));
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/**
 * Starts the check of `root` now and returns it for a test to await. Each check runs `pnpm ls` (a
 * process that mostly starts up), so the file starts all of them as it loads and they run side by
 * side instead of one after the other.
 */
function started(root: string): Promise<Awaited<ReturnType<typeof check>>> {
  const result = check(root);
  // Awaited by its test; this only keeps a failure from being reported as unhandled before that.
  result.catch(() => undefined);
  return result;
}

const checks = {
  thisWorkspace: started(WORKSPACE_ROOT),
  devDependencyCycle: started(
    makeWorkspace({
      storage: { devDependencies: { testkit: 'workspace:*' } },
      testkit: { dependencies: { capabilities: 'workspace:*' } },
      capabilities: { dependencies: { storage: 'workspace:*' } },
    }),
  ),
  cycleCut: started(
    makeWorkspace({
      storage: {},
      testkit: { dependencies: { capabilities: 'workspace:*' } },
      capabilities: { dependencies: { storage: 'workspace:*' } },
    }),
  ),
  noTestScript: started(
    makeWorkspace({ lib: {}, untested: {} }, { 'packages/lib/test/lib.test.ts': "it('runs', () => {});\n" }),
  ),
  wrongTestScript: started(
    makeWorkspace(
      { lib: { scripts: { test: 'jest' } } },
      { 'packages/lib/src/lib.int.test.ts': "it('runs', () => {});\n" },
    ),
  ),
};

afterAll(async () => {
  // Every check has ended before its folder goes (a failed test may not have awaited its own).
  await Promise.allSettled(Object.values(checks));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('pnpm lint:workspace', () => {
  it('passes on this workspace: no package cycle, every package with tests has its test script', async () => {
    const result = await checks.thisWorkspace;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('fails on a made-up cycle that only a devDependency closes, naming each edge', async () => {
    const result = await checks.devDependencyCycle;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^cyclic workspace dependencies: /m);
    expect(result.stderr).toContain('storage → testkit (devDependencies)');
    expect(result.stderr).toContain('testkit → capabilities (dependencies)');
    expect(result.stderr).toContain('capabilities → storage (dependencies)');
  });

  it('passes the same packages once the cycle is cut', async () => {
    expect(await checks.cycleCut).toMatchObject({ code: 0, stderr: '' });
  });

  it('fails on a package with tests but no test script, saying which script to add', async () => {
    const result = await checks.noTestScript;
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `lib has tests but no "test" script: add "test": "jest --config ../../jest.config.js --roots '<rootDir>/packages/lib'" to packages/lib/package.json\n`,
    );
  });

  it('fails on a test script that runs other tests than the package’s own', async () => {
    const result = await checks.wrongTestScript;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`lib's "test" script is "jest"`);
  });
});
