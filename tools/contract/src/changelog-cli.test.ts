import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from './canonical-json';
import { runChangelog } from './changelog-cli';
import type { ContractChangelog, ContractManifest } from './manifest-types';
import { MANIFEST_PATH } from './paths';

/**
 * `pnpm contract changelog add` without --class / --elements: both come from the checker's diff of
 * the newest entry's manifest (found by its sha256; here a lookup of the test's instead of git) against
 * the manifest as it is now. Crafted pairs from the committed manifest.
 */

type Element = ContractManifest['elements'][number];
const committed = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as ContractManifest;
const text = (manifest: ContractManifest) => `${JSON.stringify(manifest, null, 2)}\n`;
const without = (id: string): ContractManifest => ({
  ...committed,
  elements: committed.elements.filter((element: Element) => element.id !== id),
});
const firstOf = (kind: string): string => {
  const found = committed.elements.find((element: Element) => element.kind === kind);
  if (found === undefined) throw new Error(`no ${kind} in the manifest`);
  return found.id;
};

/** Files for one case: the changelog's newest entry records `baseline`; the manifest is `candidate`. */
function setup(baseline: ContractManifest, candidate: ContractManifest) {
  const dir = mkdtempSync(join(tmpdir(), 'contract-derive-'));
  const manifestPath = join(dir, 'manifest.json');
  const changelogPath = join(dir, 'changelog.json');
  const baselineText = text(baseline);
  writeFileSync(manifestPath, text(candidate));
  const changelog: ContractChangelog = {
    format: 'svc-contract-changelog/1',
    entries: [
      {
        change_id: '2026-11-26/1',
        class: 'additive',
        elements: [],
        date: '2026-11-26',
        summary: 'the baseline',
        manifest_sha256: sha256Hex(baselineText),
      },
    ],
  } as ContractChangelog;
  writeFileSync(changelogPath, `${JSON.stringify(changelog, null, 2)}\n`);
  const out: string[] = [];
  const lookups: string[] = [];
  const io = {
    manifestPath,
    changelogPath,
    today: '2027-01-02',
    stdout: (t: string) => out.push(t),
    stderr: (t: string) => out.push(t),
    manifestWithSha: (sha: string) => {
      lookups.push(sha);
      return sha === sha256Hex(baselineText) ? baselineText : undefined;
    },
  };
  const entries = () => (JSON.parse(readFileSync(changelogPath, 'utf8')) as ContractChangelog).entries;
  return { io, out, lookups, entries, changelogPath };
}

describe('changelog add derives class and elements from the checker', () => {
  const endpoint = firstOf('rest_endpoint');
  const scope = firstOf('scope');

  test('a new endpoint: additive, naming it', async () => {
    const { io, entries, out } = setup(without(endpoint), committed);
    expect(await runChangelog(['add', '--summary', 'a new endpoint'], io)).toBe(0);
    expect(entries().at(-1)).toMatchObject({
      class: 'additive',
      elements: [endpoint],
      summary: 'a new endpoint',
    });
    expect(out.join('')).toContain(`additive  ${endpoint}`);
  });

  test('a removal: breaking, the element written "<id> (removed)"', async () => {
    const { io, entries } = setup(committed, without(scope));
    expect(await runChangelog(['add', '--summary', 'scope gone'], io)).toBe(0);
    expect(entries().at(-1)).toMatchObject({ class: 'breaking', elements: [`${scope} (removed)`] });
  });

  test('the strictest class wins; elements are unique and sorted', async () => {
    const { io, entries } = setup(without(endpoint), without(scope));
    expect(await runChangelog(['add', '--summary', 'both'], io)).toBe(0);
    expect(entries().at(-1)).toMatchObject({
      class: 'breaking',
      elements: [endpoint, `${scope} (removed)`].sort(),
    });
  });

  test('a --class milder than the checker finds is refused; a stricter one is kept', async () => {
    const refused = setup(committed, without(scope));
    const before = readFileSync(refused.changelogPath, 'utf8');
    expect(await runChangelog(['add', '--class', 'additive', '--summary', 'x'], refused.io)).toBe(1);
    expect(refused.out.join('')).toContain('the checker classes this change breaking');
    expect(readFileSync(refused.changelogPath, 'utf8')).toBe(before);

    const stricter = setup(without(endpoint), committed);
    expect(await runChangelog(['add', '--class', 'behavioral-risk', '--summary', 'x'], stricter.io)).toBe(0);
    expect(stricter.entries().at(-1)).toMatchObject({ class: 'behavioral-risk', elements: [endpoint] });
  });

  test('given --elements are used as given, the class still derived', async () => {
    const { io, entries } = setup(without(endpoint), committed);
    expect(await runChangelog(['add', '--summary', 'x', '--elements', scope], io)).toBe(0);
    expect(entries().at(-1)).toMatchObject({ class: 'additive', elements: [scope] });
  });

  test('both given: the checker is not asked', async () => {
    const { io, lookups } = setup(without(endpoint), committed);
    expect(
      await runChangelog(['add', '--class', 'additive', '--summary', 'x', '--elements', endpoint], io),
    ).toBe(0);
    expect(lookups).toEqual([]);
  });

  test('refuses when nothing changed, or when the newest entry’s manifest cannot be found', async () => {
    const same = setup(committed, committed);
    expect(await runChangelog(['add', '--summary', 'x'], same.io)).toBe(1);
    expect(same.out.join('')).toContain('has not changed since entry 2026-11-26/1');
    expect(same.entries()).toHaveLength(1);

    const lost = setup(without(endpoint), committed);
    const io = { ...lost.io, manifestWithSha: () => undefined };
    expect(await runChangelog(['add', '--summary', 'x'], io)).toBe(1);
    expect(lost.out.join('')).toContain('give --class and --elements');
    expect(lost.entries()).toHaveLength(1);
  });
});
