import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContractFiles } from '../src/routes/contract';
import { type AppHarness, startAppHarness } from './support/app-harness';

/** GET /contract/manifest.json and /contract/changelog.json: public, the committed bytes, ETag = sha256. */

/** node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests. */
function conditionalGet(url: string, etag: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'If-None-Match': etag } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
}

describe('contract files', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());

  it('serves the committed manifest without a key, its ETag the sha256 of the changelog', async () => {
    const committed = readContractFiles();
    const response = await app.fetch('/contract/manifest.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const body = await response.text();
    expect(body).toBe(committed.manifest);
    const hash = createHash('sha256').update(body).digest('hex');
    expect(response.headers.get('etag')).toBe(`"${hash}"`);
    const changelog = (await (await app.fetch('/contract/changelog.json')).json()) as {
      entries: Array<{ manifest_sha256: string }>;
    };
    expect(changelog.entries.at(-1)?.manifest_sha256).toBe(hash);
    expect(await conditionalGet(`${app.url}/contract/manifest.json`, `"${hash}"`)).toBe(304);
  });

  it('serves the files it was given, and refuses other methods with 405', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-files-'));
    writeFileSync(join(dir, 'manifest.json'), '{"format":"m"}\n');
    writeFileSync(join(dir, 'changelog.json'), '{"format":"c"}\n');
    const custom = await startAppHarness({ contractFiles: readContractFiles(dir) });
    try {
      expect(await (await custom.fetch('/contract/manifest.json')).text()).toBe('{"format":"m"}\n');
      const changelog = await custom.fetch('/contract/changelog.json');
      expect(await changelog.text()).toBe('{"format":"c"}\n');
      expect(changelog.headers.get('svc-contract-version')).toBe('2026-08-restoration-local');
      expect((await custom.fetch('/contract/manifest.json', { method: 'POST' })).status).toBe(405);
    } finally {
      await custom.close();
    }
  });

  it('a missing file fails the start', () => {
    expect(() => readContractFiles(mkdtempSync(join(tmpdir(), 'contract-none-')))).toThrow(/ENOENT/);
  });
});
