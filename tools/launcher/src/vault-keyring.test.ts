import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vaultKeyringPath } from '@svc/devstack';
import { KeyringError, loadKeyringFile } from '@svc/vault-crypto';
import { prepareVaultKeyring } from './vault-keyring';

const keyringJson = (current = 1): string =>
  JSON.stringify({ current, keys: [{ version: 1, key: randomBytes(32).toString('base64') }] });

describe('prepareVaultKeyring', () => {
  let dir: string;
  let dataDir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-keyring-'));
    dataDir = path.join(dir, '.data');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const prepare = (inline?: string, file?: string) =>
    prepareVaultKeyring({ inline, file, rootDir: dir, dataDir });

  it('makes <DATA_DIR>/vault-keyring.json once (0600, version 1) and never overwrites it', () => {
    const first = prepare();
    const file = vaultKeyringPath(dataDir);
    expect(first).toEqual({ file, created: true, warnings: [] });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadKeyringFile(file).keyring.versions).toEqual([1]);
    const content = fs.readFileSync(file, 'utf8');

    expect(prepare()).toEqual({ file, created: false, warnings: [] });
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  it('stops on a broken file of its own instead of replacing it', () => {
    const file = vaultKeyringPath(dataDir);
    fs.mkdirSync(dataDir);
    fs.writeFileSync(file, '{"current": 1', { mode: 0o600 });
    expect(() => prepare()).toThrow(`VAULT_KEYRING_FILE ${file} is not valid JSON`);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"current": 1');
  });

  it('uses the operator’s VAULT_KEYRING and makes no file', () => {
    expect(prepare(keyringJson())).toEqual({ file: undefined, created: false, warnings: [] });
    expect(fs.existsSync(vaultKeyringPath(dataDir))).toBe(false);
    expect(() => prepare('{"current": 2, "keys": []}')).toThrow(KeyringError);
  });

  it('uses the operator’s VAULT_KEYRING_FILE, relative to the workspace root, and checks it', () => {
    fs.writeFileSync(path.join(dir, 'ring.json'), keyringJson(), { mode: 0o600 });
    expect(prepare(undefined, 'ring.json')).toEqual({
      file: path.join(dir, 'ring.json'),
      created: false,
      warnings: [],
    });
    expect(fs.existsSync(vaultKeyringPath(dataDir))).toBe(false);
    fs.chmodSync(path.join(dir, 'ring.json'), 0o640);
    expect(prepare(undefined, 'ring.json').warnings).toEqual([
      `VAULT_KEYRING_FILE ${path.join(dir, 'ring.json')} is readable by group or others (mode 0640): run chmod 600 on it`,
    ]);
    expect(() => prepare(undefined, 'missing.json')).toThrow(
      `VAULT_KEYRING_FILE ${path.join(dir, 'missing.json')} does not exist`,
    );
  });

  it('refuses both variables at once', () => {
    fs.writeFileSync(path.join(dir, 'ring.json'), keyringJson(), { mode: 0o600 });
    expect(() => prepare(keyringJson(), 'ring.json')).toThrow(
      'set only one of VAULT_KEYRING and VAULT_KEYRING_FILE',
    );
  });
});
