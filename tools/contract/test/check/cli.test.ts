import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCheck } from '../../src/check/cli';
import { compareManifests } from '../../src/check/diff';
import { parseManifest } from '../../src/check/manifest';
import {
  allElements,
  type Element,
  endpoint,
  limit,
  manifest,
  mode,
  replaced,
  requestBody,
  state,
  tempFiles,
} from './fixtures';

const TODAY = '2026-11-26';
const E = 'rest:POST /api/things';
const REMOVED = `breaking/endpoint-removed/${E}`;

async function run(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await runCheck(argv, {
    cwd,
    today: TODAY,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

const pair = (candidate: Element[], extra: Record<string, unknown> = {}) =>
  tempFiles({ 'base.json': manifest(allElements()), 'cand.json': manifest(candidate), ...extra });
const approvals = (entries: { change_id: string; reason: string; expires: string }[]) => ({
  format: 'svc-contract-approvals/1',
  approvals: entries,
});

describe('pnpm contract check: exit codes', () => {
  it('0 when only additive or behavioral-risk changes', async () => {
    const dir = pair(replaced([mode({ description: 'Inline.' }), limit({ value: { min: 1, max: 500 } })]));
    const result = await run(['--baseline', 'base.json', '--candidate', 'cand.json'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('behavioral-risk (1):');
    expect(result.stdout).toContain('behavioral-risk/limit-changed/limit:crt.limit#/value');
    expect(result.stdout).toContain('additive (1):');
    expect(result.stdout).toContain('OK: compatible');
  });

  it('1 on an unapproved breaking change, naming it', async () => {
    const dir = pair(replaced([], [E]));
    const result = await run(['--baseline', 'base.json', '--candidate', 'cand.json'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`[NOT APPROVED] ${REMOVED}`);
    expect(result.stdout).toContain('FAIL: 1 breaking change(s)');
  });

  it('an approval in force makes the breaking change pass (expiring today still counts)', async () => {
    const file = approvals([{ change_id: REMOVED, reason: 'Unused since 2026-06.', expires: TODAY }]);
    const dir = pair(replaced([], [E]), { 'approvals.json': file });
    const result = await run(
      ['--baseline', 'base.json', '--candidate', 'cand.json', '--approvals', 'approvals.json'],
      dir,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`[approved] ${REMOVED}`);
  });

  it('an expired approval does not count, and is reported', async () => {
    const file = approvals([{ change_id: REMOVED, reason: 'Old.', expires: '2026-11-25' }]);
    const dir = pair(replaced([], [E]), { 'approvals.json': file });
    const result = await run(
      ['--baseline', 'base.json', '--candidate', 'cand.json', '--approvals', 'approvals.json'],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Expired approvals (they approve nothing):');
    expect(result.stdout).toContain(`${REMOVED} (expires 2026-11-25): Old.`);
  });

  it('an approval matching no change is a warning, not a failure', async () => {
    const file = approvals([
      { change_id: 'breaking/tool-removed/mcp:gone', reason: 'Stale.', expires: '2027-01-01' },
    ]);
    const dir = pair(allElements(), { 'approvals.json': file });
    const result = await run(
      ['--baseline', 'base.json', '--candidate', 'cand.json', '--approvals', 'approvals.json'],
      dir,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Warning: approvals matching no change');
    expect(result.stdout).toContain('breaking/tool-removed/mcp:gone');
  });

  it.each([
    ['an unknown element kind', { id: 'webhook:x', kind: 'webhook', url: '/x' }, 'webhook:x', 'kind'],
    ['an unknown field on an element', { ...mode(), colour: 'red' }, 'mode:sync', 'colour'],
    [
      'an unknown field in deprecated',
      { ...mode(), deprecated: { since: '2026-01-01', sunset: '2026-06-01', link: 'https://x', note: 'n' } },
      'mode:sync',
      'deprecated.note',
    ],
  ])('3 on %s, naming the element and field', async (_name, element, id, field) => {
    const dir = pair(replaced([element as Element]));
    const result = await run(['--baseline', 'base.json', '--candidate', 'cand.json', '--json'], dir);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({
      format: 'svc-contract-check/1',
      exit_code: 3,
      error: { kind: 'unknown-input', message: expect.stringContaining(id), element: id, field },
    });
    expect(result.stderr).toContain(
      field === 'kind' ? 'unknown element kind "webhook"' : `unknown field "${field}"`,
    );
  });

  it('3 on an unknown manifest format (either side) or approvals format', async () => {
    const dir = pair(allElements(), {
      'v2.json': { ...manifest(allElements()), format: 'svc-contract-manifest/2' },
      'approvals.json': { format: 'svc-contract-approvals/9', approvals: [] },
    });
    expect((await run(['--baseline', 'v2.json', '--candidate', 'cand.json'], dir)).code).toBe(3);
    expect((await run(['--baseline', 'base.json', '--candidate', 'v2.json'], dir)).code).toBe(3);
    const approvalsRun = await run(
      ['--baseline', 'base.json', '--candidate', 'cand.json', '--approvals', 'approvals.json'],
      dir,
    );
    expect(approvalsRun.code).toBe(3);
  });

  it.each([
    [['--candidate', 'cand.json']],
    [['--baseline', 'base.json', '--candidate', 'missing.json']],
    [['--baseline', 'base.json', '--candidate', 'cand.json', '--approvals', 'missing.json']],
    [['--baseline', 'base.json', '--candidate', 'cand.json', '--verbose']],
    [['--baseline', 'base.json', '--candidate', 'cand.json', 'extra']],
  ])('2 on a usage error: %j', async (argv) => {
    const dir = pair(allElements());
    const result = await run(argv, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: pnpm contract check');
  });
});

describe('pnpm contract check --json', () => {
  it('reports changes, approvals used/expired/unused and the exit code', async () => {
    const file = approvals([
      { change_id: REMOVED, reason: 'Replaced by v2.', expires: '2027-01-01' },
      { change_id: 'breaking/mode-removed/mode:sync', reason: 'Old.', expires: '2026-01-01' },
      { change_id: 'breaking/tool-removed/mcp:gone', reason: 'Stale.', expires: '2027-01-01' },
    ]);
    const dir = pair(replaced([state({ transitions: ['failed'] })], [E]), { 'approvals.json': file });
    const argv = [
      '--baseline',
      'base.json',
      '--candidate',
      'cand.json',
      '--approvals',
      'approvals.json',
      '--json',
    ];
    const result = await run(argv, dir);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      format: 'svc-contract-check/1',
      exit_code: 0,
      baseline: { source: 'base.json', version: '2026-08-restoration-local' },
      candidate: { source: 'cand.json', version: '2026-08-restoration-local' },
      summary: { breaking: 1, 'behavioral-risk': 1, additive: 0, unapproved_breaking: 0 },
      changes: [
        {
          id: 'behavioral-risk/state-transition-removed/state:running#/transitions/succeeded',
          class: 'behavioral-risk',
          rule: 'state-transition-removed',
          element: 'state:running',
          pointer: '/transitions/succeeded',
          message: expect.stringContaining('transition to "succeeded" removed'),
          approved: false,
        },
        {
          id: REMOVED,
          class: 'breaking',
          rule: 'endpoint-removed',
          element: E,
          pointer: '',
          message: expect.stringContaining('REST endpoint was removed'),
          approved: true,
        },
      ],
      approvals: {
        used: [{ change_id: REMOVED, reason: 'Replaced by v2.', expires: '2027-01-01' }],
        expired: [{ change_id: 'breaking/mode-removed/mode:sync', reason: 'Old.', expires: '2026-01-01' }],
        unused: [{ change_id: 'breaking/tool-removed/mcp:gone', reason: 'Stale.', expires: '2027-01-01' }],
      },
    });
  });
});

describe('change ids', () => {
  const ids = (candidate: Element[]) =>
    compareManifests(
      parseManifest(JSON.stringify(manifest(allElements())), 'base'),
      parseManifest(JSON.stringify(manifest(candidate)), 'cand'),
    ).map((change) => change.id);
  const narrowed = () => {
    const body = requestBody();
    const properties = body.properties as Record<string, object>;
    return { ...body, properties: { ...properties, name: { type: 'string', minLength: 1, maxLength: 10 } } };
  };
  const ID = `breaking/type-narrowed/${E}#/request_body/properties/name/maxLength`;

  it('are the same when unrelated changes happen elsewhere (same element, other elements, order)', () => {
    const alone = ids(replaced([endpoint({ request_body: narrowed() })]));
    expect(alone).toEqual([ID]);
    const body = narrowed();
    const withOthers = ids(
      replaced(
        [
          endpoint({
            // Properties and set members added before the changed one in sort order.
            request_body: {
              ...body,
              properties: { aaa: { type: 'string' }, ...(body.properties as object) },
            },
            scopes: ['aaa:read', 'things:write'],
            responses: { '200': null, '201': null, '422': null },
          }),
          { ...mode(), id: 'mode:aaa', value: 'aaa' },
          state({ transitions: ['aaa', 'failed', 'succeeded'] }),
        ],
        ['error:409'],
      ).reverse(),
    );
    expect(withOthers).toContain(ID);
    expect(withOthers.length).toBeGreaterThan(5);
  });
});

describe('--baseline as a git ref', () => {
  const repo = () => {
    const dir = tempFiles({});
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
        cwd: dir,
      });
    git('init', '-q');
    mkdirSync(path.join(dir, 'contract'));
    writeFileSync(path.join(dir, 'contract', 'manifest.json'), JSON.stringify(manifest(allElements())));
    git('add', '.');
    git('commit', '-q', '-m', 'manifest');
    writeFileSync(path.join(dir, 'contract', 'manifest.json'), JSON.stringify(manifest(replaced([], [E]))));
    mkdirSync(path.join(dir, 'sub'));
    return dir;
  };

  it('reads <ref>:contract/manifest.json from the repository root, also from a subdirectory', async () => {
    const dir = repo();
    const result = await run(
      ['--baseline', 'HEAD', '--candidate', '../contract/manifest.json'],
      path.join(dir, 'sub'),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('git:HEAD:contract/manifest.json');
    expect(result.stdout).toContain(REMOVED);
    const explicit = await run(
      ['--baseline', 'HEAD:contract/manifest.json', '--candidate', 'contract/manifest.json'],
      dir,
    );
    expect(explicit.code).toBe(1);
  });

  it('2 on an unknown ref or a path missing at that ref', async () => {
    const dir = repo();
    const unknown = await run(['--baseline', 'no-such-ref', '--candidate', 'contract/manifest.json'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('neither a file nor a git object');
    const missing = await run(['--baseline', 'HEAD:nope.json', '--candidate', 'contract/manifest.json'], dir);
    expect(missing.code).toBe(2);
  });
});

describe('--baseline changelog:previous (the CI gate)', () => {
  const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  const entry = (n: number, text: string) => ({
    change_id: `2026-11-26/${n}`,
    class: 'additive',
    elements: [],
    date: '2026-11-26',
    summary: `change ${n}`,
    manifest_sha256: sha(text),
  });
  /** A repository whose changelog has `texts.length` entries, one commit per manifest. */
  const repo = (texts: string[]) => {
    const dir = tempFiles({});
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
        cwd: dir,
      });
    git('init', '-q');
    mkdirSync(path.join(dir, 'contract'));
    texts.forEach((text, index) => {
      writeFileSync(path.join(dir, 'contract', 'manifest.json'), text);
      const entries = texts.slice(0, index + 1).map((t, i) => entry(i + 1, t));
      writeFileSync(
        path.join(dir, 'contract', 'changelog.json'),
        JSON.stringify({ format: 'svc-contract-changelog/1', entries }),
      );
      git('add', '.');
      git('commit', '-q', '-m', `manifest ${index + 1}`);
    });
    return dir;
  };
  const before = JSON.stringify(manifest(allElements()));
  const after = JSON.stringify(manifest(replaced([], [E])));
  const argv = ['--baseline', 'changelog:previous', '--candidate', 'contract/manifest.json'];

  it("compares with the manifest the changelog's previous entry recorded: an unapproved break fails", async () => {
    const result = await run(argv, repo([before, after]));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('changelog 2026-11-26/1');
    expect(result.stdout).toContain(REMOVED);
  });

  it('passes the same break once it is approved', async () => {
    const dir = repo([before, after]);
    writeFileSync(
      path.join(dir, 'approvals.json'),
      JSON.stringify({
        format: 'svc-contract-approvals/1',
        approvals: [{ change_id: REMOVED, reason: 'gone for good', expires: '2027-01-01' }],
      }),
    );
    expect((await run([...argv, '--approvals', 'approvals.json'], dir)).code).toBe(0);
  });

  it('with one entry there is nothing before it: compatible', async () => {
    expect((await run(argv, repo([before]))).code).toBe(0);
  });

  it('2 when no commit holds the previous entry’s manifest', async () => {
    const dir = repo([before, after]);
    const changelog = path.join(dir, 'contract', 'changelog.json');
    writeFileSync(
      changelog,
      JSON.stringify({
        format: 'svc-contract-changelog/1',
        entries: [{ ...entry(1, before), manifest_sha256: 'f'.repeat(64) }, entry(2, after)],
      }),
    );
    const result = await run(argv, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no commit holds the manifest');
  });
});
