import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findWorkspaceRoot } from '@svc/devstack';

/**
 * The dashboard is its own process (issue 24 item 3): the API process loads none of its libraries.
 * The gateway's main.ts is started with an environment it refuses at once (no DATABASE_URL), after
 * every module it imports statically has been loaded; a preloaded hook writes what was loaded.
 */

const ROOT = findWorkspaceRoot(__dirname);
/** Libraries only the dashboard uses: pages, passwords, the template upload form, its cookies. */
const DASHBOARD_ONLY = ['preact', 'preact-render-to-string', '@node-rs/argon2', 'multer', 'cookie-parser'];

function modulesLoadedBy(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'svc-loaded-'));
  const out = join(dir, 'modules.txt');
  try {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--require', join(__dirname, 'support', 'loaded-modules.cjs'), entry],
      {
        cwd: ROOT,
        // Nothing it needs: the env check fails and the process exits before any connection.
        env: { PATH: process.env.PATH, LOADED_MODULES_OUT: out },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status).toBe(1);
    return readFileSync(out, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The packages among `modules` (paths under node_modules), by name. */
function packagesIn(modules: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const path of modules) {
    const match = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return names;
}

it('the gateway process loads none of the dashboard’s libraries', () => {
  const modules = modulesLoadedBy('services/gateway/src/main.ts');
  // What it does load (so the check cannot pass on an empty list): its app and express.
  expect(modules).toContain(join(ROOT, 'services/gateway/src/app.ts'));
  const packages = packagesIn(modules);
  expect(packages).toContain('express');
  expect(DASHBOARD_ONLY.filter((name) => packages.has(name))).toEqual([]);
  expect(modules.filter((path) => path.includes('/services/dashboard/'))).toEqual([]);
}, 90_000);

/**
 * Loaded on first use (@svc/bus bullmq.ts, @svc/storage's S3 client): a service that uses no queue
 * and no S3 does not pay for loading them at each start (about 0.25 s and 0.15 s of CPU here).
 */
const ON_FIRST_USE = ['bullmq', 'minio'];

it.each([
  ['gateway', 'services/gateway/src/main.ts'],
  ['registry', 'services/registry/src/main.ts'],
])(
  'the %s process loads neither bullmq nor minio at start',
  (_name, entry) => {
    const packages = packagesIn(modulesLoadedBy(entry));
    // It does load the bus and its Redis client (so the check cannot pass on an empty list).
    expect(packages).toContain('ioredis');
    expect(ON_FIRST_USE.filter((name) => packages.has(name))).toEqual([]);
  },
  90_000,
);
