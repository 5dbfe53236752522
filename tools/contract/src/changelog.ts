import {
  CHANGE_CLASSES,
  CHANGELOG_FORMAT,
  type ContractChangelog,
  type ContractManifest,
} from './manifest-types';

/**
 * contract/changelog.json (spec §9.3): one entry per contract change, oldest first. The newest
 * entry's `manifest_sha256` is the hash of the committed manifest's bytes, so a manifest change
 * without a new entry is caught (tools/contract/test/manifest-committed.test.ts).
 */

/** How an entry names an element it removed: `<id> (removed)`. */
export const REMOVED = ' (removed)';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Problems of a changelog against the committed manifest, one line each; [] = well-formed.
 * An entry's `elements` must be ids of the manifest, or (for a removal) written `<id> (removed)`;
 * entries before a removal may still name the removed id.
 */
export function changelogProblems(changelog: ContractChangelog, manifest: ContractManifest): string[] {
  const problems: string[] = [];
  if (changelog.format !== CHANGELOG_FORMAT) problems.push(`format must be ${CHANGELOG_FORMAT}`);
  if (!Array.isArray(changelog.entries) || changelog.entries.length === 0) {
    return [...problems, 'entries must be a non-empty array'];
  }
  const ids = new Set(manifest.elements.map((element) => element.id));
  // An element removed later stays nameable by the entries before its removal.
  for (const entry of changelog.entries) {
    for (const id of Array.isArray(entry.elements) ? entry.elements : []) {
      if (typeof id === 'string' && id.endsWith(REMOVED)) ids.add(id.slice(0, -REMOVED.length));
    }
  }
  const seen = new Set<string>();
  let previousDate = '';
  changelog.entries.forEach((entry, index) => {
    const at = `entries[${index}] (${entry.change_id})`;
    if (typeof entry.change_id !== 'string' || entry.change_id === '')
      problems.push(`${at}: change_id is empty`);
    if (seen.has(entry.change_id)) problems.push(`${at}: change_id is not unique`);
    seen.add(entry.change_id);
    if (!CHANGE_CLASSES.includes(entry.class))
      problems.push(`${at}: class must be one of ${CHANGE_CLASSES.join(', ')}`);
    if (
      typeof entry.date !== 'string' ||
      !DAY.test(entry.date) ||
      Number.isNaN(Date.parse(`${entry.date}T00:00:00Z`))
    ) {
      problems.push(`${at}: date must be YYYY-MM-DD`);
    } else {
      if (entry.date < previousDate) problems.push(`${at}: date is earlier than the entry before it`);
      previousDate = entry.date;
    }
    if (typeof entry.summary !== 'string' || entry.summary.trim() === '')
      problems.push(`${at}: summary is empty`);
    if (typeof entry.manifest_sha256 !== 'string' || !SHA256.test(entry.manifest_sha256)) {
      problems.push(`${at}: manifest_sha256 must be 64 lower-case hex digits`);
    }
    if (!Array.isArray(entry.elements)) {
      problems.push(`${at}: elements must be an array of element ids`);
      return;
    }
    for (const id of entry.elements) {
      const removed = typeof id === 'string' && id.endsWith(REMOVED);
      if (!removed && !ids.has(id))
        problems.push(
          `${at}: element ${id} is not in the manifest (a removed one is written "<id> (removed)")`,
        );
    }
  });
  return problems;
}

/** The newest entry (the last). */
export function newestEntry(changelog: ContractChangelog) {
  return changelog.entries[changelog.entries.length - 1];
}
