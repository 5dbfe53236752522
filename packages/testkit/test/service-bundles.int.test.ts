import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleEntries, findWorkspaceRoot, isProcessAlive, PARENT_WATCH_SOURCE } from '@svc/devstack';
import { pollUntil } from '../src';

// The bundles the integration tier's stacks run (service-bundles.ts) must behave as the sources do
// under tsx: a file's own __dirname/__filename, every other package loaded from where node resolves
// it from the importing file (pnpm's strict layout), workspace code inlined, names kept.

const root = findWorkspaceRoot(__dirname);
const fixtureDir = join(__dirname, 'fixtures', 'bundle-probe');
const entry = join(fixtureDir, 'entry.ts');
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'svc-bundle-test-'));
  await bundleEntries(root, { probe: entry, 'parent-watch': PARENT_WATCH_SOURCE }, outDir);
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

  it("end a service whose parent died, with the parent-death watch's bundle loaded first", async () => {
    // parent → service (`node --require parent-watch.js`, as `pnpm start` runs each one); once the
    // service runs (the watch is loaded before its code), the parent prints the service's pid and is
    // then SIGKILLed: nothing of it gets to stop the service.
    const serviceArgs = [
      '--require',
      join(outDir, 'parent-watch.js'),
      '-e',
      "console.log('up'); setInterval(() => {}, 1000)",
    ];
    const parent = spawn(process.execPath, [
      '-e',
      `const c = require('node:child_process').spawn(process.execPath, ${JSON.stringify(serviceArgs)}, { stdio: ['ignore', 'pipe', 'ignore'] });` +
        "c.stdout.once('data', () => process.stdout.write(String(c.pid) + '\\n')); setInterval(() => {}, 1000);",
    ]);
    const pid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      parent.once('error', reject);
    });
    expect(isProcessAlive(pid)).toBe(true);
    parent.kill('SIGKILL');
    // The watch looks every second.
    await pollUntil(() => !isProcessAlive(pid), { what: 'the orphaned service ended', timeoutMs: 10_000 });
  });
});
