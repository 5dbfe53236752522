import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Path of the committed manifest inside the repository, for a `--baseline <git ref>`. */
export const MANIFEST_PATH = 'contract/manifest.json';

/** Bad flags, a missing file or an unknown git ref: exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface LoadedText {
  readonly text: string;
  /** How the report names it: the file path, or `git:<ref>:<path>`. */
  readonly source: string;
}

export function readInputFile(file: string, cwd: string, flag: string): LoadedText {
  const resolved = path.resolve(cwd, file);
  if (!existsSync(resolved) || !statSync(resolved).isFile())
    throw new UsageError(`${flag}: no such file ${file}`);
  return { text: readFileSync(resolved, 'utf8'), source: file };
}

/**
 * `--baseline` is a file when one exists at that path; otherwise a git object: `<ref>:<path>` as
 * given, or `<ref>` meaning `<ref>:contract/manifest.json`, read with `git show` in the repository
 * containing `cwd` (paths are from its root).
 */
export function readBaseline(value: string, cwd: string): LoadedText {
  if (value === PREVIOUS_ENTRY) return previousEntryBaseline(cwd);
  const resolved = path.resolve(cwd, value);
  if (existsSync(resolved) && statSync(resolved).isFile()) return readInputFile(value, cwd, '--baseline');
  const object = value.includes(':') ? value : `${value}:${MANIFEST_PATH}`;
  const root = git(['rev-parse', '--show-toplevel'], cwd);
  if (root === undefined)
    throw new UsageError(`--baseline: ${value} is not a file, and ${cwd} is not in a git repository`);
  const text = git(['show', object], root.trim());
  if (text === undefined) {
    throw new UsageError(
      `--baseline: ${value} is neither a file nor a git object (git show ${object} failed)`,
    );
  }
  return { text, source: `git:${object}` };
}

function git(args: string[], cwd: string): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
}

/**
 * `--baseline changelog:previous`: the manifest as the changelog's previous entry recorded it (its
 * `manifest_sha256`), found in the git history of contract/manifest.json. This is the gate CI runs
 * (docs/decisions.md CV/CC): every manifest change needs a changelog entry (the committed-manifest test),
 * and the difference between two consecutive entries must have no unapproved breaking change. With
 * one entry there is nothing before it: the baseline is the candidate's own committed manifest.
 */
export const PREVIOUS_ENTRY = 'changelog:previous';
const CHANGELOG_PATH = 'contract/changelog.json';

function previousEntryBaseline(cwd: string): LoadedText {
  const root = git(['rev-parse', '--show-toplevel'], cwd)?.trim();
  if (root === undefined)
    throw new UsageError(`--baseline ${PREVIOUS_ENTRY}: ${cwd} is not in a git repository`);
  const changelogFile = path.join(root, CHANGELOG_PATH);
  if (!existsSync(changelogFile)) throw new UsageError(`--baseline ${PREVIOUS_ENTRY}: no ${CHANGELOG_PATH}`);
  const parsed: unknown = JSON.parse(readFileSync(changelogFile, 'utf8'));
  const entries =
    typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { entries?: unknown }).entries)
      ? ((parsed as { entries: unknown[] }).entries as { manifest_sha256?: unknown; change_id?: unknown }[])
      : [];
  const previous = entries.at(-2);
  if (previous === undefined) {
    // The first entry: the committed manifest is its own baseline (nothing to compare).
    return readInputFile(MANIFEST_PATH, root, '--baseline');
  }
  const wanted = String(previous.manifest_sha256);
  const found = committedManifestWithSha(root, wanted);
  if (found !== undefined) {
    return { text: found.text, source: `${found.source} (changelog ${String(previous.change_id)})` };
  }
  throw new UsageError(
    `--baseline ${PREVIOUS_ENTRY}: no commit holds the manifest of changelog entry ${String(previous.change_id)} (sha256 ${wanted})`,
  );
}

/**
 * The version of contract/manifest.json whose bytes hash to `sha256` (a changelog entry's
 * `manifest_sha256`), searched from the newest commit touching the file back; undefined when no
 * commit holds it (an entry not committed yet).
 */
export function committedManifestWithSha(root: string, sha256: string): LoadedText | undefined {
  const commits = git(['log', '--format=%H', '--', MANIFEST_PATH], root)?.split('\n').filter(Boolean) ?? [];
  for (const commit of commits) {
    const text = git(['show', `${commit}:${MANIFEST_PATH}`], root);
    if (text !== undefined && createHash('sha256').update(text, 'utf8').digest('hex') === sha256) {
      return { text, source: `git:${commit.slice(0, 12)}:${MANIFEST_PATH}` };
    }
  }
  return undefined;
}
