// The platform's services prebuilt, as `pnpm start` and the integration tier's stacks run them
// (issue 24 item 7). A service started as `node --import tsx services/<name>/src/main.ts` spends
// about 2.3 s of CPU loading itself on this 2-core machine (tsx resolving and transforming some 400
// workspace files through node's loader hooks), against about 1 s from one prebuilt file; the
// integration tier starts services hundreds of times (private stacks, restarts in the fault
// suites) and a crash-looping service is started again and again. So `pnpm start` and the
// integration set-up build every service once (esbuild, one to a few seconds) and run the bundles.
//
// Only the workspace's own code is bundled. Every other package stays a `require` of the absolute
// path node would have resolved from the importing file, so what is loaded, and from where, is
// what tsx loads (pnpm's strict layout included). Files that read `__dirname` / `__filename` (the
// gateway's contract directory, the dashboard's assets, worker-thread entries) get their own
// source path, as under tsx. Source maps keep stack traces on the TypeScript lines. The images run
// the sources (infra/docker/Dockerfile).
import { readFile, rm } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { SERVICE_NAMES, type ServiceName, serviceEntry } from './platform-services';

/** The watchdog that ends a service whose parent died (parent-watch.ts), as a source file. */
export const PARENT_WATCH_SOURCE = path.join(__dirname, 'parent-watch.ts');
/** Its bundle's name beside the services'. */
const PARENT_WATCH_BUNDLE = 'parent-watch';

const WORKSPACE_SCOPE = '@svc/';
const BUILTINS = new Set(builtinModules);

/** The bundle of `name` in `dir`. */
export function serviceBundlePath(dir: string, name: ServiceName): string {
  return path.join(dir, `${name}.js`);
}

export interface ServiceNodeOptions {
  /** Load the parent watchdog first (parent-watch.ts): the service ends when its parent dies. */
  parentWatch?: boolean;
}

/** node's arguments that run `name` from the bundles in `dir` (buildServiceBundles). */
export function bundledServiceArguments(
  dir: string,
  name: ServiceName,
  options: ServiceNodeOptions = {},
): string[] {
  const watch =
    options.parentWatch === true ? ['--require', path.join(dir, `${PARENT_WATCH_BUNDLE}.js`)] : [];
  return ['--enable-source-maps', ...watch, serviceBundlePath(dir, name)];
}

/**
 * node's arguments that run `name` from its sources under tsx (relative to the workspace root),
 * with `imports` (more `--import` modules) loaded first.
 */
export function sourceServiceArguments(
  name: ServiceName,
  options: ServiceNodeOptions & { imports?: readonly string[] } = {},
): string[] {
  const imports = [
    'tsx',
    ...(options.parentWatch === true ? [PARENT_WATCH_SOURCE] : []),
    ...(options.imports ?? []),
  ];
  return [...imports.flatMap((module) => ['--import', module]), serviceEntry(name)];
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

/** Builds one bundle per platform service, and the parent watchdog's, into `outDir` (emptied first). */
export async function buildServiceBundles(rootDir: string, outDir: string): Promise<void> {
  await bundleEntries(
    rootDir,
    {
      ...Object.fromEntries(SERVICE_NAMES.map((name) => [name, serviceEntry(name)])),
      [PARENT_WATCH_BUNDLE]: path.relative(rootDir, PARENT_WATCH_SOURCE),
    },
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
