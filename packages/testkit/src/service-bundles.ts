// The services a test stack starts, prebuilt (issue 24 item 7: a ten-minute CI). A service started
// as `node --import tsx services/<name>/src/main.ts` spends about 2.3 s of CPU loading itself on
// this 2-core machine (tsx resolving and transforming some 400 workspace files through node's
// loader hooks), against about 1 s from one prebuilt file; the integration tier starts services
// hundreds of times (private stacks, restarts in the fault suites). So its global set-up builds
// every service once per test run (esbuild, a few seconds), and ChildService runs those bundles.
//
// Only the workspace's own code is bundled. Every other package stays a `require` of the absolute
// path node would have resolved from the importing file, so what is loaded, and from where, is
// what tsx loads (pnpm's strict layout included). Files that read `__dirname` / `__filename` (the
// gateway's contract directory, the dashboard's assets, worker-thread entries) get their own
// source path, as under tsx. Source maps keep stack traces on the TypeScript lines.
import { readFile, rm } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { SERVICE_NAMES, type ServiceName, serviceEntry } from '@svc/devstack';
import { build, type Plugin } from 'esbuild';

/** Environment variable naming the directory of the bundles (set by the integration set-up). */
export const SERVICE_BUNDLES_ENV = 'TESTKIT_SERVICE_BUNDLES';
/** Its value that keeps the services on their sources (tsx): to tell a bundling fault from a bug. */
export const SERVICE_BUNDLES_OFF = 'off';

const WORKSPACE_SCOPE = '@svc/';
const BUILTINS = new Set(builtinModules);

/** The bundle of `name` in `dir`. */
export function serviceBundlePath(dir: string, name: ServiceName): string {
  return path.join(dir, `${name}.js`);
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0] ?? specifier);
}

/** Workspace packages and relative files are bundled; any other package is required where it is. */
const requireOtherPackagesInPlace: Plugin = {
  name: 'require-other-packages-in-place',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith(WORKSPACE_SCOPE)) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      // The file node resolves from the importer (CommonJS conditions: the bundle is CommonJS, as
      // tsx runs these CommonJS packages), required by its absolute path at run time.
      const resolved = createRequire(path.join(args.resolveDir, 'index.js')).resolve(args.path);
      return { path: resolved, external: true };
    });
  },
};

/** A workspace source file with its own `__dirname` / `__filename`, as it has under tsx. */
const ownSourcePaths: Plugin = {
  name: 'own-source-paths',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.[cm]?tsx?$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const loader = args.path.endsWith('x') ? 'tsx' : 'ts';
      if (!/\b__(dirname|filename)\b/.test(source)) return { contents: source, loader };
      // esbuild scopes these per module (renamed where two collide); one line, so the source map's
      // line numbers are off by one only in these few files.
      const paths =
        `var __filename = ${JSON.stringify(args.path)}; ` +
        `var __dirname = ${JSON.stringify(path.dirname(args.path))};\n`;
      return { contents: paths + source, loader };
    });
  },
};

/** Builds one bundle per platform service into `outDir` (emptied first). */
export async function buildServiceBundles(rootDir: string, outDir: string): Promise<void> {
  await bundleEntries(
    rootDir,
    Object.fromEntries(SERVICE_NAMES.map((name) => [name, serviceEntry(name)])),
    outDir,
  );
}

/** Bundles each entry (output name → source path, relative to `rootDir`) into `<outDir>/<name>.js`. */
export async function bundleEntries(
  rootDir: string,
  entries: Record<string, string>,
  outDir: string,
): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: rootDir,
    entryPoints: entries,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    // Class and function names as written: logs and errors name them (err.name, constructor.name).
    keepNames: true,
    logLevel: 'error',
    plugins: [requireOtherPackagesInPlace, ownSourcePaths],
  });
}
