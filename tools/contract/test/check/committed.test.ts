import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runCheck } from '../../src/check/cli';
import { ELEMENT_KINDS, parseManifest } from '../../src/check/manifest';
import { manifestText } from '../../src/generate/manifest';
import { ELEMENT_KINDS as MANIFEST_KINDS } from '../../src/manifest-types';
import { APPROVALS_PATH, MANIFEST_PATH, REPO_ROOT } from '../../src/paths';
import { tempFiles } from './fixtures';

/** Whether the committed manifest is in HEAD (it is not while its first commit is being prepared). */
function inHead(): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', 'HEAD:contract/manifest.json'], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

describe('the checker on the real contract', () => {
  it('knows exactly the element kinds the manifest types declare', () => {
    expect(Object.keys(ELEMENT_KINDS).sort()).toEqual([...MANIFEST_KINDS].sort());
  });

  it('understands the committed and the generated manifest', () => {
    parseManifest(readFileSync(MANIFEST_PATH, 'utf8'), 'contract/manifest.json');
    parseManifest(manifestText(), 'generated');
  });

  it('finds no unapproved breaking change from the committed manifest (HEAD, else the working tree) to the generated one', async () => {
    const dir = tempFiles({ 'generated.json': manifestText() });
    const candidate = path.join(dir, 'generated.json');
    const baseline = inHead() ? 'HEAD' : MANIFEST_PATH;
    const argv = ['--baseline', baseline, '--candidate', candidate, '--json'];
    if (existsSync(APPROVALS_PATH)) argv.push('--approvals', APPROVALS_PATH);
    let out = '';
    const code = await runCheck(argv, { cwd: REPO_ROOT, stdout: (text) => (out += text), stderr: () => {} });
    const report = JSON.parse(out) as { changes: { id: string; class: string; approved: boolean }[] };
    expect(report.changes.filter((change) => change.class === 'breaking' && !change.approved)).toEqual([]);
    expect(code).toBe(0);
  });
});
