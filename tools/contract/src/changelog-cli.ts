import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { contractFileText, sha256Hex } from './canonical-json';
import { changelogProblems, newestEntry, REMOVED } from './changelog';
import { compareManifests } from './check/diff';
import { parseManifest } from './check/manifest';
import { committedManifestWithSha } from './check/sources';
import {
  CHANGE_CLASSES,
  type ChangeClass,
  type ContractChangelog,
  type ContractManifest,
} from './manifest-types';
import { CHANGELOG_PATH, MANIFEST_PATH, REPO_ROOT } from './paths';

export const CHANGELOG_USAGE =
  'usage: pnpm contract changelog add --summary <text> [--class <additive|behavioral-risk|breaking>] ' +
  '[--elements <id,id,…>] [--change-id <id>]\n' +
  '  without --class / --elements, both come from the checker: the manifest of the newest entry\n' +
  '  (found in git by its sha256) against the manifest as it is now\n';

function isChangeClass(value: string): value is ChangeClass {
  return (CHANGE_CLASSES as readonly string[]).includes(value);
}

/**
 * `pnpm contract changelog add`: appends an entry for the committed manifest as it is now (today's
 * UTC date, its sha256). The default change id is `<date>/<entry number>`, unique in the file.
 */
export interface ChangelogIo {
  readonly manifestPath: string;
  readonly changelogPath: string;
  /** The entry's date, YYYY-MM-DD (UTC today unless a test pins it). */
  readonly today: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The manifest text whose sha256 is the given one (default: git history of contract/manifest.json). */
  readonly manifestWithSha: (sha256: string) => string | undefined;
}

const defaultIo = (): ChangelogIo => ({
  manifestPath: MANIFEST_PATH,
  changelogPath: CHANGELOG_PATH,
  today: new Date().toISOString().slice(0, 10),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  manifestWithSha: (sha256) => committedManifestWithSha(REPO_ROOT, sha256)?.text,
});

export async function runChangelog(argv: string[], io: Partial<ChangelogIo> = {}): Promise<number> {
  const { manifestPath, changelogPath, today, stdout, stderr, manifestWithSha } = { ...defaultIo(), ...io };
  const [sub, ...rest] = argv;
  if (sub !== 'add') {
    stderr(CHANGELOG_USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      class: { type: 'string' },
      summary: { type: 'string' },
      elements: { type: 'string' },
      'change-id': { type: 'string' },
    },
    strict: true,
  });
  if ((values.class !== undefined && !isChangeClass(values.class)) || !values.summary?.trim()) {
    stderr(CHANGELOG_USAGE);
    return 2;
  }
  const manifestBytes = readFileSync(manifestPath, 'utf8');
  const manifest = JSON.parse(manifestBytes) as ContractManifest;
  const changelog = JSON.parse(readFileSync(changelogPath, 'utf8')) as ContractChangelog;
  let changeClass: ChangeClass | undefined = values.class;
  let elements = values.elements
    ?.split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (changeClass === undefined || elements === undefined) {
    const derived = deriveFromChecker(changelog, manifestBytes, manifestPath, manifestWithSha);
    if ('problem' in derived) {
      stderr(`changelog entry refused: ${derived.problem}\n`);
      return 1;
    }
    if (changeClass !== undefined && rank(changeClass) < rank(derived.class)) {
      stderr(
        `changelog entry refused: --class ${changeClass}, but the checker classes this change ${derived.class}:\n` +
          `${derived.lines.join('\n')}\n`,
      );
      return 1;
    }
    changeClass ??= derived.class;
    elements ??= derived.elements;
    stdout(`from the checker (${derived.baseline}):\n${derived.lines.join('\n')}\n`);
  }
  const date = today;
  const next: ContractChangelog = {
    ...changelog,
    entries: [
      ...changelog.entries,
      {
        change_id: values['change-id'] ?? `${date}/${changelog.entries.length + 1}`,
        class: changeClass,
        elements,
        date,
        summary: values.summary.trim(),
        manifest_sha256: sha256Hex(manifestBytes),
      },
    ],
  };
  const problems = changelogProblems(next, manifest);
  if (problems.length > 0) {
    stderr(`changelog entry refused:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    return 1;
  }
  writeFileSync(changelogPath, contractFileText(next, CHANGELOG_PATH, REPO_ROOT));
  const added = next.entries.at(-1);
  stdout(
    `added ${added?.change_id} (${added?.class}: ${added?.elements.join(', ') || 'no elements'}) to ${changelogPath}\n`,
  );
  return 0;
}

const rank = (changeClass: ChangeClass): number => CHANGE_CLASSES.indexOf(changeClass);

type Derived =
  | { class: ChangeClass; elements: string[]; lines: string[]; baseline: string }
  | { problem: string };

/**
 * The class and element ids of the change since the newest entry: the compatibility checker's diff
 * of that entry's manifest (found by its sha256) against the manifest now. The class is the
 * strictest of the changes found; an element gone from the manifest is written `<id> (removed)`.
 */
function deriveFromChecker(
  changelog: ContractChangelog,
  manifestBytes: string,
  manifestPath: string,
  manifestWithSha: (sha256: string) => string | undefined,
): Derived {
  const newest = newestEntry(changelog);
  if (newest === undefined)
    return { problem: 'the changelog has no entry to compare with; give --class and --elements' };
  if (newest.manifest_sha256 === sha256Hex(manifestBytes)) {
    return {
      problem: `the manifest has not changed since entry ${newest.change_id} (run \`pnpm contract generate\` first?)`,
    };
  }
  const baselineText = manifestWithSha(newest.manifest_sha256);
  if (baselineText === undefined) {
    return {
      problem:
        `no commit holds the manifest of entry ${newest.change_id} (sha256 ${newest.manifest_sha256}), so the ` +
        'checker has nothing to compare with; give --class and --elements',
    };
  }
  const baseline = parseManifest(baselineText, `entry ${newest.change_id}`);
  const candidate = parseManifest(manifestBytes, manifestPath);
  const changes = compareManifests(baseline, candidate);
  if (changes.length === 0) {
    return {
      problem:
        `the checker finds no contract difference since entry ${newest.change_id} (only text the rules do not ` +
        'class changed?); give --class and --elements',
    };
  }
  const changeClass = changes.reduce<ChangeClass>(
    (strictest, change) => (rank(change.class) > rank(strictest) ? change.class : strictest),
    'additive',
  );
  const elements = [
    ...new Set(
      changes.map((change) =>
        candidate.elements.has(change.element) ? change.element : `${change.element}${REMOVED}`,
      ),
    ),
  ].sort();
  return {
    class: changeClass,
    elements,
    lines: changes.map((change) => `  ${change.class}  ${change.message}`),
    baseline: `entry ${newest.change_id}`,
  };
}
