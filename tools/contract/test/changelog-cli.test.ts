import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../src/canonical-json';
import { runChangelog } from '../src/changelog-cli';
import type { ContractChangelog } from '../src/manifest-types';
import { CHANGELOG_PATH, MANIFEST_PATH } from '../src/paths';

/** `pnpm contract changelog add` on copies of the committed files. */
function copies() {
  const dir = mkdtempSync(join(tmpdir(), 'contract-changelog-'));
  const manifestPath = join(dir, 'manifest.json');
  const changelogPath = join(dir, 'changelog.json');
  copyFileSync(MANIFEST_PATH, manifestPath);
  copyFileSync(CHANGELOG_PATH, changelogPath);
  const out: string[] = [];
  const io = {
    manifestPath,
    changelogPath,
    today: '2027-01-02',
    stdout: (t: string) => out.push(t),
    stderr: (t: string) => out.push(t),
  };
  return { io, out, changelogPath, manifestPath };
}

describe('pnpm contract changelog add', () => {
  test("appends an entry with today's date and the manifest's hash", async () => {
    const { io, changelogPath, manifestPath } = copies();
    const before = JSON.parse(readFileSync(changelogPath, 'utf8')) as ContractChangelog;
    const code = await runChangelog(
      [
        'add',
        '--class',
        'behavioral-risk',
        '--summary',
        ' quotes last longer ',
        '--elements',
        'limit:quote.ttl',
      ],
      io,
    );
    expect(code).toBe(0);
    const after = JSON.parse(readFileSync(changelogPath, 'utf8')) as ContractChangelog;
    expect(after.entries.slice(0, -1)).toEqual(before.entries);
    expect(after.entries.at(-1)).toEqual({
      change_id: `2027-01-02/${before.entries.length + 1}`,
      class: 'behavioral-risk',
      elements: ['limit:quote.ttl'],
      date: '2027-01-02',
      summary: 'quotes last longer',
      manifest_sha256: sha256Hex(readFileSync(manifestPath)),
    });
  });

  test('refuses an unknown class, a missing summary and an element not in the manifest', async () => {
    const { io, out, changelogPath } = copies();
    const before = readFileSync(changelogPath, 'utf8');
    expect(await runChangelog(['add', '--class', 'major', '--summary', 'x'], io)).toBe(2);
    expect(await runChangelog(['add', '--class', 'additive'], io)).toBe(2);
    expect(
      await runChangelog(
        ['add', '--class', 'additive', '--summary', 'x', '--elements', 'rest:GET /nope'],
        io,
      ),
    ).toBe(1);
    expect(out.join('')).toContain('element rest:GET /nope is not in the manifest');
    expect(readFileSync(changelogPath, 'utf8')).toBe(before);
  });
});
