/**
 * `pnpm --filter @svc/sdk build`: the SDK as a package any Node project installs (decisions SK10–SK12,
 * SK15); `pnpm --filter @svc/sdk tarball` (`--pack`) builds and then packs it into
 * packages/sdk/svc-sdk-<version>.tgz (git-ignored).
 *
 *  - dist/index.js (CommonJS) and dist/index.mjs (ES module), bundled by esbuild: the SDK and the
 *    parts of @svc/contracts it uses (tldts with them: crt's Apex check), `zod` left external;
 *  - dist/index.d.ts (+ an identical index.d.mts for `import`), bundled by dts-bundle-generator: the
 *    contracts' types inlined, zod imported;
 *  - dist/package.json, the manifest `pnpm pack` ships (publishConfig.directory = dist): main, types,
 *    exports, and `zod` as the only dependency.
 * The workspace keeps `main: src/index.ts` (package.json), so nothing in the repo needs the build.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { generateDtsBundle } from 'dts-bundle-generator';
import { build, type Plugin } from 'esbuild';

const PACKAGE_DIR = resolve(__dirname, '..');
const DIST = join(PACKAGE_DIR, 'dist');
const ENTRY = join(PACKAGE_DIR, 'src', 'index.ts');
const CONTRACTS_SRC = resolve(PACKAGE_DIR, '..', 'contracts', 'src');
const requireHere = createRequire(join(PACKAGE_DIR, 'package.json'));

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly license?: string;
}

/**
 * The contracts package has no `sideEffects` field, and a zod schema is a call, which a bundler keeps
 * unless told the module is pure: mark the contracts' modules side-effect free so the files the SDK
 * does not use (OpenAPI, bus catalogs, vault, MCP) are dropped (316 kB → 240 kB, of which 178 kB is
 * tldts's public-suffix list, needed by crt's Apex).
 */
const contractsArePure: Plugin = {
  name: 'contracts-are-pure',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'contracts-are-pure') return undefined;
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'contracts-are-pure',
      });
      if (resolved.errors.length > 0 || !resolved.path.startsWith(CONTRACTS_SRC)) return resolved;
      return { ...resolved, sideEffects: false };
    });
  },
};

async function bundleJs(): Promise<void> {
  for (const [format, outfile] of [
    ['cjs', 'index.js'],
    ['esm', 'index.mjs'],
  ] as const) {
    await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format,
      outfile: join(DIST, outfile),
      external: ['zod'],
      plugins: [contractsArePure],
      logLevel: 'warning',
    });
  }
}

function bundleTypes(): void {
  // @svc/contracts through `paths` (tsconfig.build.json), not through its node_modules symlink: a
  // module resolved in node_modules is an "external library" to the compiler, which emits no
  // declarations for it, and dts-bundle-generator's second pass then finds none of its files. The
  // path leads to scripts/contracts-for-types.ts, the contracts modules the SDK uses, and the
  // program is not type-checked (`noCheck`): `pnpm typecheck` checks the sources, the
  // outside-install test the bundle (SK15).
  const [dts] = generateDtsBundle(
    [
      {
        filePath: ENTRY,
        libraries: { inlinedLibraries: ['@svc/contracts'] },
        output: { noBanner: true, exportReferencedTypes: true },
      },
    ],
    { preferredConfigPath: join(PACKAGE_DIR, 'tsconfig.build.json') },
  );
  if (dts === undefined) throw new Error('dts-bundle-generator produced no output');
  if (/from ['"]@svc\//.test(dts)) throw new Error('dist/index.d.ts still imports a workspace package');
  const header =
    '// @svc/sdk: bundled declarations; the @svc/contracts types are inlined, zod is imported.\n';
  writeFileSync(join(DIST, 'index.d.ts'), header + dts);
  copyFileSync(join(DIST, 'index.d.ts'), join(DIST, 'index.d.mts'));
}

function writeManifest(): void {
  const own = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as PackageJson;
  const zod = JSON.parse(readFileSync(requireHere.resolve('zod/package.json'), 'utf8')) as PackageJson;
  const manifest = {
    name: own.name,
    version: own.version,
    private: true,
    description: own.description,
    license: own.license,
    engines: { node: '>=20' },
    sideEffects: false,
    main: './index.js',
    module: './index.mjs',
    types: './index.d.ts',
    exports: {
      '.': {
        import: { types: './index.d.mts', default: './index.mjs' },
        require: { types: './index.d.ts', default: './index.js' },
      },
      './package.json': './package.json',
    },
    // The version the bundle was built and tested with, and any later 4.x (zod's types are public:
    // the declarations name z.ZodObject and friends, so a caller's zod 4 schemas interoperate).
    dependencies: { zod: `^${zod.version}` },
  };
  writeFileSync(join(DIST, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * `pnpm pack` of dist into the package's own directory. Run by pnpm with `--filter` from the
 * workspace root, `pnpm pack` would write the tarball there (its default destination is the
 * directory pnpm runs in), an untracked file in the root.
 */
function pack(): string {
  const own = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as PackageJson;
  execFileSync('pnpm', ['pack', '--pack-destination', PACKAGE_DIR], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return join(PACKAGE_DIR, `${own.name.replace('@', '').replace('/', '-')}-${own.version}.tgz`);
}

async function main(): Promise<void> {
  // The compiler dts-bundle-generator loads (its own dependency), not whichever is hoisted.
  const typescript = createRequire(requireHere.resolve('dts-bundle-generator'))('typescript') as {
    version: string;
  };
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  await bundleJs();
  bundleTypes();
  writeManifest();
  process.stdout.write(`@svc/sdk built in ${DIST} (TypeScript ${typescript.version})\n`);
  if (process.argv.includes('--pack')) process.stdout.write(`packed ${pack()}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`sdk build: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
