import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';

/** The manifest fields pnpm reads to order and link workspace packages (its createPkgGraph reads all four). */
export const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;
export type DependencyField = (typeof DEPENDENCY_FIELDS)[number];

const dependencyMap = z.record(z.string(), z.string()).optional();

/** The parts of a package.json the checks read; everything else is let through. */
export const packageManifestSchema = z.object({
  name: z.string().optional(),
  scripts: z.record(z.string(), z.string()).optional(),
  dependencies: dependencyMap,
  devDependencies: dependencyMap,
  optionalDependencies: dependencyMap,
  peerDependencies: dependencyMap,
});
export type PackageManifest = z.infer<typeof packageManifestSchema>;

export interface WorkspacePackage {
  /** The manifest's name; a package without one is named by its folder relative to the workspace root. */
  name: string;
  /** Absolute path of the package's folder. */
  dir: string;
  manifest: PackageManifest;
}

/** What `pnpm ls --recursive --json` prints: one entry per workspace project, the root included. */
const pnpmListSchema = z.array(z.object({ name: z.string().optional(), path: z.string() }));

const execFileAsync = promisify(execFile);

/**
 * Every project of the workspace at `root` (the root package included), as pnpm itself finds them
 * (`pnpm ls --recursive --depth -1`): the same list the cycle warning of `pnpm install` is made from,
 * with no second reading of pnpm-workspace.yaml's globs to drift from it.
 */
export async function listWorkspacePackages(root: string): Promise<WorkspacePackage[]> {
  const { stdout } = await execFileAsync('pnpm', ['ls', '--recursive', '--depth', '-1', '--json'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024, // bytes: a few hundred bytes per project
  });
  const projects = pnpmListSchema.parse(JSON.parse(stdout));
  return Promise.all(
    projects.map(async (project) => {
      const manifestFile = path.join(project.path, 'package.json');
      const manifest = packageManifestSchema.parse(JSON.parse(await readFile(manifestFile, 'utf8')));
      return {
        name: manifest.name ?? (path.relative(root, project.path) || '.'),
        dir: project.path,
        manifest,
      };
    }),
  );
}
