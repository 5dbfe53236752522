import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { contractFileText, sha256Hex } from './canonical-json';
import { changelogProblems } from './changelog';
import {
  CHANGE_CLASSES,
  type ChangeClass,
  type ContractChangelog,
  type ContractManifest,
} from './manifest-types';
import { CHANGELOG_PATH, MANIFEST_PATH, REPO_ROOT } from './paths';

export const CHANGELOG_USAGE =
  'usage: pnpm contract changelog add --class <additive|behavioral-risk|breaking> --summary <text> ' +
  '[--elements <id,id,…>] [--change-id <id>]\n';

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
}

const defaultIo = (): ChangelogIo => ({
  manifestPath: MANIFEST_PATH,
  changelogPath: CHANGELOG_PATH,
  today: new Date().toISOString().slice(0, 10),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

export async function runChangelog(argv: string[], io: Partial<ChangelogIo> = {}): Promise<number> {
  const { manifestPath, changelogPath, today, stdout, stderr } = { ...defaultIo(), ...io };
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
      elements: { type: 'string', default: '' },
      'change-id': { type: 'string' },
    },
    strict: true,
  });
  if (values.class === undefined || !isChangeClass(values.class) || !values.summary?.trim()) {
    stderr(CHANGELOG_USAGE);
    return 2;
  }
  const manifestBytes = readFileSync(manifestPath, 'utf8');
  const manifest = JSON.parse(manifestBytes) as ContractManifest;
  const changelog = JSON.parse(readFileSync(changelogPath, 'utf8')) as ContractChangelog;
  const date = today;
  const next: ContractChangelog = {
    ...changelog,
    entries: [
      ...changelog.entries,
      {
        change_id: values['change-id'] ?? `${date}/${changelog.entries.length + 1}`,
        class: values.class,
        elements: values.elements
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
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
  stdout(`added ${next.entries.at(-1)?.change_id} to ${changelogPath}\n`);
  return 0;
}
