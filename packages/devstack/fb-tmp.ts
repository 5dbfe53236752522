import { build, type Plugin } from 'esbuild';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
const root = '/work/main';
const names = ['registry','orchestrator','gateway','wallet','uploads','vault','worker','dashboard'];
const KEEP = [/^@node-rs\//, /^sharp$/, /^playwright/, /^@prisma\//, /^prisma$/, /^pg-native$/, /^@img\//];
const B = new Set(builtinModules);
const plugin: Plugin = { name: 'x', setup(b) {
  b.onResolve({ filter: /^[^./]/ }, (args) => {
    if (args.kind === 'entry-point' || args.path.startsWith('@svc/')) return undefined;
    if (args.path.startsWith('node:') || B.has(args.path.split('/')[0]!)) return { path: args.path, external: true };
    if (!KEEP.some((r) => r.test(args.path))) return undefined;
    try { return { path: createRequire(path.join(args.resolveDir, 'index.js')).resolve(args.path), external: true }; }
    catch { return { path: args.path, external: true }; }
  });
}};
(async () => {
  const r = await build({
    absWorkingDir: root, entryPoints: Object.fromEntries(names.map(n => [n, `services/${n}/src/main.ts`])), outdir: '/tmp/m/fb', bundle: true,
    platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, keepNames: true, logLevel: 'warning', plugins: [plugin],
  });
  console.log('ok', r.errors.length);
})().catch(e => { console.error(e.message.slice(0, 3000)); process.exit(1); });
