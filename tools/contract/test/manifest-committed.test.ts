import { readFileSync } from 'node:fs';
import { sha256Hex } from '../src/canonical-json';
import { changelogProblems, newestEntry } from '../src/changelog';
import { buildManifest, manifestText } from '../src/generate/manifest';
import type { ContractChangelog, ContractManifest } from '../src/manifest-types';
import { CHANGELOG_PATH, MANIFEST_PATH } from '../src/paths';

/**
 * The committed contract files are the contracts' current truth (spec §9.2, §9.3): a contract
 * change without `pnpm contract generate` or without a changelog entry fails here.
 */
const committedManifest = readFileSync(MANIFEST_PATH, 'utf8');
const committedChangelog = readFileSync(CHANGELOG_PATH, 'utf8');
const manifest = JSON.parse(committedManifest) as ContractManifest;
const changelog = JSON.parse(committedChangelog) as ContractChangelog;

describe('contract/manifest.json and contract/changelog.json', () => {
  test('the committed manifest is the generated one', () => {
    const generated = manifestText();
    if (generated !== committedManifest) {
      throw new Error(
        'contract/manifest.json is not what the contracts generate: run `pnpm contract generate`, ' +
          'then add a changelog entry (`pnpm contract changelog add --class … --summary …`) and commit both',
      );
    }
  });

  test("the newest changelog entry's manifest_sha256 is the committed manifest's hash", () => {
    const hash = sha256Hex(committedManifest);
    const newest = newestEntry(changelog);
    if (newest?.manifest_sha256 !== hash) {
      throw new Error(
        `contract/manifest.json (sha256 ${hash}) changed without a changelog entry: add one with ` +
          '`pnpm contract changelog add --class <additive|behavioral-risk|breaking> --summary "…"`',
      );
    }
  });

  test('every changelog entry is well-formed', () => {
    expect(changelogProblems(changelog, manifest)).toEqual([]);
  });

  test('elements are sorted by id, ids unique and prefixed by their kind', () => {
    const ids = manifest.elements.map((element) => element.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const prefix: Record<string, string> = {
      rest_endpoint: 'rest:',
      mcp_tool: 'mcp:',
      execution_mode: 'mode:',
      run_state: 'state:',
      lifecycle: 'lifecycle:',
      error_status: 'error:',
      scope: 'scope:',
      limit: 'limit:',
    };
    for (const element of manifest.elements)
      expect(element.id.startsWith(prefix[element.kind] ?? '?')).toBe(true);
  });
});

describe('the generated manifest', () => {
  const built = buildManifest();
  const byId = new Map(built.elements.map((element) => [element.id, element]));

  test('inventories every kind of spec §9.2', () => {
    expect(new Set(built.elements.map((element) => element.kind))).toEqual(
      new Set([
        'rest_endpoint',
        'mcp_tool',
        'execution_mode',
        'run_state',
        'lifecycle',
        'error_status',
        'scope',
        'limit',
      ]),
    );
    expect(built.format).toBe('svc-contract-manifest/1');
    expect(built.version).toBe('2026-08-restoration-local');
  });

  test('a REST endpoint carries its scopes, parameters, body, responses and budget', () => {
    expect(byId.get('rest:POST /api/capabilities/{slug}/quote')).toMatchObject({
      kind: 'rest_endpoint',
      method: 'POST',
      path: '/api/capabilities/{slug}/quote',
      operation_id: expect.any(String),
      scopes: ['capabilities:quote'],
      parameters: { path: { type: 'object' }, query: null },
      request_body: { type: 'object' },
      responses: { '200': { type: 'object' }, '409': { type: 'object' }, '429': { type: 'object' } },
      rate_limit: 'quotes',
    });
    // Public and exempt: no scopes, no budget, no 429.
    const manifestEndpoint = byId.get('rest:GET /contract/manifest.json');
    expect(manifestEndpoint).toMatchObject({ scopes: [], rate_limit: null, request_body: null });
    expect(Object.keys((manifestEndpoint as { responses: object }).responses)).toEqual(['200']);
  });

  test('MCP tools, modes, states and lifecycles come from the contracts', () => {
    expect(byId.get('mcp:svc_tool_run')).toMatchObject({
      scope: 'capabilities:run',
      title: 'Run a capability',
    });
    expect(byId.get('mode:describe_only')).toMatchObject({ runnable: false });
    expect(byId.get('mode:runnable')).toMatchObject({ runnable: true });
    expect(byId.get('state:queued')).toMatchObject({
      terminal: false,
      transitions: ['cancelled', 'completed', 'failed', 'running'],
    });
    expect(byId.get('state:completed')).toMatchObject({ terminal: true, transitions: [] });
    expect(byId.get('limit:idempotency_key.length')).toMatchObject({ value: { min: 8, max: 190 } });
  });

  test('a deprecation is published on its element, and one of an unknown element fails', () => {
    const deprecation = {
      since: '2026-09-01',
      sunset: '2026-12-01',
      link: 'https://example.com/deprecations/x',
    };
    const deprecated = buildManifest({ deprecations: { 'mcp:svc_tool_cancel': deprecation } });
    expect(deprecated.elements.find((element) => element.id === 'mcp:svc_tool_cancel')?.deprecated).toEqual(
      deprecation,
    );
    expect(() => buildManifest({ deprecations: { 'rest:GET /nope': deprecation } })).toThrow(
      /no such element/,
    );
  });
});

describe('changelogProblems', () => {
  const entry = {
    change_id: 'x/1',
    class: 'additive' as const,
    elements: ['scope:vault:read'],
    date: '2026-11-26',
    summary: 'ok',
    manifest_sha256: 'a'.repeat(64),
  };
  const problemsOf = (entries: ContractChangelog['entries']) =>
    changelogProblems({ format: 'svc-contract-changelog/1', entries }, manifest);

  test('accepts a well-formed entry, and a removed element named as such', () => {
    expect(problemsOf([entry])).toEqual([]);
    expect(
      problemsOf([
        { ...entry, elements: ['rest:GET /gone'] },
        { ...entry, change_id: 'x/2', class: 'breaking', elements: ['rest:GET /gone (removed)'] },
      ]),
    ).toEqual([]);
  });

  test('names each defect', () => {
    const problems = problemsOf([
      entry,
      {
        ...entry,
        class: 'major' as never,
        date: '26.11.2026',
        summary: ' ',
        manifest_sha256: 'xyz',
        elements: ['scope:nope'],
      },
    ]);
    expect(problems).toEqual([
      'entries[1] (x/1): change_id is not unique',
      'entries[1] (x/1): class must be one of additive, behavioral-risk, breaking',
      'entries[1] (x/1): date must be YYYY-MM-DD',
      'entries[1] (x/1): summary is empty',
      'entries[1] (x/1): manifest_sha256 must be 64 lower-case hex digits',
      'entries[1] (x/1): element scope:nope is not in the manifest (a removed one is written "<id> (removed)")',
    ]);
    expect(changelogProblems({ format: 'svc-contract-changelog/1', entries: [] }, manifest)).toEqual([
      'entries must be a non-empty array',
    ]);
  });
});
