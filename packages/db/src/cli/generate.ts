// `pnpm --filter @svc/db generate` (also the root postinstall): `prisma generate`, offline.
// The Prisma 7 client needs no native engine, but the CLI still looks for (and would download) a
// schema engine binary unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file; generate never
// runs it. Output: src/generated/prisma (gitignored).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const packageDir = path.resolve(__dirname, '..', '..');
const prismaCli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');

const result = spawnSync(process.execPath, [prismaCli, 'generate'], {
  cwd: packageDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/dev/null',
    // No update check or telemetry call home: this must work without network.
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
if (result.error) throw result.error;
process.exit(result.status ?? 1);
