import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { SHARED_STACK_BEFORE_ALL_MS, type SharedTestStack, sharedTestStack } from '@svc/testkit';

/**
 * @svc/sdk as a user gets it (decisions SK10–SK13, SK15): the README's `pnpm --filter @svc/sdk
 * tarball` from the workspace root (esbuild + dts-bundle-generator, then `pnpm pack` into
 * packages/sdk, git-ignored), then `npm install <tarball>` into a project of its own in the system temp directory,
 * outside the workspace (zod and @types/node come from the npm registry, nothing from the workspace).
 * There a plain CommonJS script runs pii-redact on the jest run's shared platform through `run()`, an
 * ES module reads the balance, and the workspace's `tsc` type-checks a TypeScript consumer with
 * `skipLibCheck: false` (the bundled declarations themselves are checked), whose `@ts-expect-error`
 * lines fail the check if the types were `any`. The only network besides loopback is the registry.
 */

jest.setTimeout(120_000);

const run = promisify(execFile);
const SDK_DIR = resolve(__dirname, '..');
const WORKSPACE_ROOT = resolve(SDK_DIR, '..', '..');
const TSC = join(WORKSPACE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const SCOPES = ['capabilities:read', 'capabilities:quote', 'capabilities:run', 'billing:read'];
// npm settings that say where the registry is stay; the ones pnpm exports to its children (workspace
// dir, linker, user agent…) would describe the workspace, not the user's project.
const NPM_SETTINGS_KEPT = new Set([
  'npm_config_registry',
  'npm_config_cache',
  'npm_config_userconfig',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'npm_config_noproxy',
  'npm_config_cafile',
  'npm_config_strict_ssl',
]);

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    const lower = name.toLowerCase();
    if ((lower.startsWith('npm_') || lower.startsWith('pnpm_')) && !NPM_SETTINGS_KEPT.has(lower)) continue;
    if (name === 'NODE_OPTIONS' || name === 'INIT_CWD') continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command; a failure throws with its output, so the suite's error says what went wrong. */
async function sh(
  file: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeout?: number },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      timeout: options.timeout ?? 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const failed = err as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${file} ${args.join(' ')} failed in ${options.cwd}: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
    );
  }
}

let stack: SharedTestStack;
let packDir: string;
let project: string;
let tarball: string;

/** The README's command that builds and packs the SDK. */
const TARBALL_COMMAND = 'pnpm --filter @svc/sdk tarball';
let tarballName: string;
let packedIn: string[];

beforeAll(async () => {
  stack = await sharedTestStack();
  const { version } = JSON.parse(await readFile(join(SDK_DIR, 'package.json'), 'utf8')) as {
    version: string;
  };
  tarballName = `svc-sdk-${version}.tgz`;
  await rm(join(SDK_DIR, tarballName), { force: true });
  // ~5 s on an idle machine (SK15); far longer on a loaded one.
  try {
    const [pnpm = '', ...args] = TARBALL_COMMAND.split(' ');
    await sh(pnpm, args, { cwd: WORKSPACE_ROOT, timeout: 600_000 });
  } finally {
    // dist/package.json is named @svc/sdk too: while it exists, jest's module map sees two packages
    // of that name and refuses to resolve it in every suite that starts meanwhile. The tarball is
    // all the rest of this suite needs.
    await rm(join(SDK_DIR, 'dist'), { recursive: true, force: true });
  }
  packedIn = [WORKSPACE_ROOT, SDK_DIR].filter((dir) => existsSync(join(dir, tarballName)));
  packDir = await mkdtemp(join(tmpdir(), 'svc-sdk-pack-'));
  tarball = join(packDir, tarballName);
  const packed = packedIn[0];
  if (packed === undefined) throw new Error(`${TARBALL_COMMAND} wrote no ${tarballName}`);
  await copyFile(join(packed, tarballName), tarball);
  for (const dir of packedIn) await rm(join(dir, tarballName), { force: true });

  project = await mkdtemp(join(tmpdir(), 'svc-sdk-user-'));
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'sdk-user', version: '1.0.0', private: true }, null, 2)}\n`,
  );
  // @types/node at the workspace's version: the declarations use fetch and AbortSignal, which a Node
  // project's types give.
  const typesNode = JSON.parse(
    await readFile(join(WORKSPACE_ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8'),
  ) as { version: string };
  await sh(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--ignore-scripts',
      '--loglevel=error',
      tarball,
      `@types/node@${typesNode.version}`,
    ],
    { cwd: project, timeout: 180_000 },
  );
}, SHARED_STACK_BEFORE_ALL_MS + 900_000);

afterAll(async () => {
  if (packDir) await rm(packDir, { recursive: true, force: true });
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the packed package', () => {
  it("is written under packages/sdk, git-ignored, by the README's command; nothing in the root", async () => {
    expect(await readFile(join(WORKSPACE_ROOT, 'README.md'), 'utf8')).toContain(TARBALL_COMMAND);
    expect(packedIn).toEqual([SDK_DIR]);
    // Exit 0: ignored (a file git would list as untracked is exit 1).
    await sh('git', ['check-ignore', '--quiet', join('packages', 'sdk', tarballName)], {
      cwd: WORKSPACE_ROOT,
    });
  });

  it('is installed outside the workspace', () => {
    expect(project.startsWith(`${WORKSPACE_ROOT}${sep}`)).toBe(false);
  });

  it('ships the build only, with main/types/exports on it and zod as its only dependency', async () => {
    const { stdout } = await sh('tar', ['-tzf', tarball], { cwd: packDir });
    expect(stdout.trim().split('\n').sort()).toEqual([
      'package/index.d.mts',
      'package/index.d.ts',
      'package/index.js',
      'package/index.mjs',
      'package/package.json',
    ]);
    const installed = join(project, 'node_modules', '@svc', 'sdk');
    const manifestText = await readFile(join(installed, 'package.json'), 'utf8');
    const manifest = JSON.parse(manifestText) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: '@svc/sdk',
      main: './index.js',
      types: './index.d.ts',
      exports: {
        '.': {
          import: { types: './index.d.mts', default: './index.mjs' },
          require: { types: './index.d.ts', default: './index.js' },
        },
      },
    });
    expect(Object.keys(manifest.dependencies as object)).toEqual(['zod']);
    expect(manifest).not.toHaveProperty('devDependencies');
    expect(manifestText).not.toMatch(/workspace:|catalog:|@svc\/(?!sdk)/);
    // Nothing of the workspace came along: the contracts are inside the bundle.
    expect((await readdir(join(project, 'node_modules', '@svc'))).sort()).toEqual(['sdk']);
    const dts = await readFile(join(installed, 'index.d.ts'), 'utf8');
    const imports = [...dts.matchAll(/^import .* from ['"]([^'"]+)['"];?$/gm)].map((match) => match[1]);
    expect(imports).toEqual(['zod']);
    expect(dts).toMatch(/export type RunStatusResponse = /);
  });
});

describe('a project that installed it', () => {
  it('runs pii-redact on the platform from a plain CommonJS script', async () => {
    const key = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5' });
    await writeFile(
      join(project, 'redact.js'),
      [
        "const { SvcClient, TERMINAL_STATES } = require('@svc/sdk');",
        'const client = new SvcClient({ baseUrl: process.env.SVC_BASE_URL, apiKey: process.env.SVC_API_KEY });',
        'const phases = [];',
        'client',
        "  .run('pii-redact', { text: 'Mail jane@example.com today' }, {",
        '    deadlineMs: 60000, pollIntervalMs: 100, onProgress: (event) => phases.push(event.phase),',
        '  })',
        '  .then((run) => {',
        '    const terminal = TERMINAL_STATES.has(run.status);',
        '    process.stdout.write(JSON.stringify({ run, phases, terminal }));',
        '  })',
        '  .catch((err) => { console.error(err); process.exitCode = 1; });',
        '',
      ].join('\n'),
    );
    const { stdout } = await sh(process.execPath, ['redact.js'], {
      cwd: project,
      env: { SVC_BASE_URL: stack.gatewayUrl, SVC_API_KEY: key.apiKey },
    });
    const answer = JSON.parse(stdout) as {
      run: { run_id: string; status: string; slug: string; result: unknown };
      phases: string[];
      terminal: boolean;
    };
    expect(answer.run).toMatchObject({ slug: 'pii-redact', status: 'completed' });
    expect(answer.terminal).toBe(true);
    expect(answer.phases.slice(0, 3)).toEqual(['describe', 'quote', 'start']);
    const result = JSON.stringify(answer.run.result);
    expect(result).not.toContain('jane@example.com');
    expect(result).toContain('today');
    // The run is the platform's: the gateway knows it under this key.
    const status = await fetch(`${stack.gatewayUrl}/api/capability-runs/${answer.run.run_id}`, {
      headers: { authorization: `Bearer ${key.apiKey}` },
    });
    expect(status.status).toBe(200);
    expect(((await status.json()) as { status: string }).status).toBe('completed');
  });

  it('loads as an ES module too', async () => {
    const key = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '2' });
    await writeFile(
      join(project, 'balance.mjs'),
      [
        "import { SvcClient, NotFoundError } from '@svc/sdk';",
        'const client = new SvcClient({ baseUrl: process.env.SVC_BASE_URL, apiKey: process.env.SVC_API_KEY });',
        'const balance = await client.balance();',
        'let notFound = null;',
        "try { await client.describe('no-such-capability'); } catch (err) { notFound = err instanceof NotFoundError; }",
        'process.stdout.write(JSON.stringify({ balance, notFound }));',
        '',
      ].join('\n'),
    );
    const { stdout } = await sh(process.execPath, ['balance.mjs'], {
      cwd: project,
      env: { SVC_BASE_URL: stack.gatewayUrl, SVC_API_KEY: key.apiKey },
    });
    const answer = JSON.parse(stdout) as { balance: { ok: boolean; balance_usd: string }; notFound: boolean };
    expect(answer.balance.ok).toBe(true);
    expect(Number(answer.balance.balance_usd)).toBe(2);
    expect(answer.notFound).toBe(true);
  });

  it("type-checks a TypeScript user of the SDK's bundled declarations", async () => {
    await writeFile(
      join(project, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: ['node'],
          },
          files: ['user.ts', 'user.mts'],
        },
        null,
        2,
      )}\n`,
    );
    await writeFile(
      join(project, 'user.ts'),
      [
        "import { PaymentRequiredError, type ProgressEvent, type RunStatusResponse, SvcClient } from '@svc/sdk';",
        '',
        'export async function redact(text: string): Promise<string> {',
        "  const client = new SvcClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.SVC_API_KEY });",
        '  const seen: ProgressEvent[] = [];',
        '  try {',
        "    const run: RunStatusResponse = await client.run('pii-redact', { text }, { onProgress: (e) => seen.push(e) });",
        "    const state: 'queued' | 'running' | 'retrying' | 'completed' | 'failed' | 'cancelled' = run.status;",
        "    // @ts-expect-error a run state is not a number: the types are the contracts', not any",
        '    const wrong: number = run.status;',
        "    return [state, wrong, seen.length, JSON.stringify(run.result)].join(' ');",
        '  } catch (err) {',
        "    if (err instanceof PaymentRequiredError) return ['refused', err.status, err.error].join(' ');",
        '    throw err;',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    await writeFile(
      join(project, 'user.mts'),
      [
        "import { SvcClient } from '@svc/sdk';",
        '',
        "const client = new SvcClient({ baseUrl: 'http://localhost:8080' });",
        '// @ts-expect-error describe takes a slug, not a number',
        'void client.describe(42);',
        'const balance = await client.balance();',
        'export const held: string = balance.held_usd;',
        '',
      ].join('\n'),
    );
    const { stdout } = await sh(process.execPath, [TSC, '--version'], { cwd: project });
    process.stderr.write(`sdk package: type-checked with ${stdout.trim()}\n`);
    // Exit 0 with no output, or sh() throws with tsc's diagnostics.
    await expect(
      sh(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, timeout: 280_000 }),
    ).resolves.toEqual({ stdout: '', stderr: '' });
  }, 300_000);
});
