import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  addKeyVersion,
  createKeyringFile,
  fieldSubject,
  KeyringError,
  loadKeyringFile,
  openValue,
  removeKeyVersion,
  sealValue,
  setCurrentKeyVersion,
  watchKeyringFile,
} from '../src/index';
import { keyringJson } from './support';

const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;

describe('keyring files', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-keyring-'));
    file = path.join(dir, 'nested', 'vault-keyring.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('createKeyringFile makes version 1, mode 0600, once, and never overwrites', () => {
    expect(createKeyringFile(file)).toEqual({ created: true });
    expect(modeOf(file)).toBe(0o600);
    const first = fs.readFileSync(file, 'utf8');
    const { keyring, warnings } = loadKeyringFile(file);
    expect(keyring.currentVersion).toBe(1);
    expect(keyring.versions).toEqual([1]);
    expect(warnings).toEqual([]);

    expect(createKeyringFile(file)).toEqual({ created: false });
    expect(fs.readFileSync(file, 'utf8')).toBe(first);
    // Not even a broken file is replaced: its keys may be the only way to read stored values.
    fs.writeFileSync(file, 'not json');
    expect(createKeyringFile(file)).toEqual({ created: false });
    expect(fs.readFileSync(file, 'utf8')).toBe('not json');
    // No temporary files left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['vault-keyring.json']);
  });

  it('refuses a file everyone can write; warns when group or others have access', () => {
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, keyringJson([1]), { mode: 0o600 });
    fs.chmodSync(file, 0o602);
    expect(() => loadKeyringFile(file)).toThrow(
      `VAULT_KEYRING_FILE ${file} is writable by everyone (mode 0602): run chmod 600 on it`,
    );
    fs.chmodSync(file, 0o666);
    expect(() => loadKeyringFile(file)).toThrow(KeyringError);
    // umask 002 (Ubuntu's default) makes checkouts group-writable: a warning, not a refusal.
    fs.chmodSync(file, 0o664);
    expect(loadKeyringFile(file).warnings).toEqual([
      `VAULT_KEYRING_FILE ${file} is writable by its group (mode 0664): run chmod 600 on it`,
    ]);
    fs.chmodSync(file, 0o644);
    expect(loadKeyringFile(file).warnings).toEqual([
      `VAULT_KEYRING_FILE ${file} is readable by group or others (mode 0644): run chmod 600 on it`,
    ]);
    fs.chmodSync(file, 0o400);
    expect(loadKeyringFile(file).warnings).toEqual([]);
  });

  // Only root can hand a file to another user; elsewhere the rule is covered by the warning above.
  (process.getuid?.() === 0 ? it : it.skip)(
    'says nothing about a read-only secret mount owned by another user',
    () => {
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, keyringJson([1]), { mode: 0o644 });
      fs.chownSync(file, 12_345, 12_345);
      expect(loadKeyringFile(file).warnings).toEqual([]);
    },
  );

  it('names a directory and bad contents by file', () => {
    fs.mkdirSync(file, { recursive: true });
    expect(() => loadKeyringFile(file)).toThrow(`VAULT_KEYRING_FILE ${file} is not a regular file`);
    fs.rmdirSync(file);
    fs.writeFileSync(file, '{"current": 1, "keys": []}', { mode: 0o600 });
    expect(() => loadKeyringFile(file)).toThrow(
      `VAULT_KEYRING_FILE ${file}: "keys" must be a non-empty array`,
    );
  });

  it('addKeyVersion adds the next version (current by default), keeps 0600 and the old keys', async () => {
    createKeyringFile(file);
    const before = loadKeyringFile(file).keyring;
    const clientId = 'c-1';
    const subject = fieldSubject('iban');
    const sealed = await sealValue({ kek: before, clientId, subject, plaintext: 'DE89370400440532013000' });

    expect(addKeyVersion(file)).toEqual({ version: 2, currentVersion: 2 });
    expect(modeOf(file)).toBe(0o600);
    expect(addKeyVersion(file, { makeCurrent: false })).toEqual({ version: 3, currentVersion: 2 });
    const after = loadKeyringFile(file).keyring;
    expect(after.versions).toEqual([1, 2, 3]);
    expect(after.currentVersion).toBe(2);
    expect(await openValue({ kek: after, clientId, subject, ...sealed })).toBe('DE89370400440532013000');

    setCurrentKeyVersion(file, 3);
    expect(loadKeyringFile(file).keyring.currentVersion).toBe(3);
    expect(() => setCurrentKeyVersion(file, 7)).toThrow(
      /key version 7 is not in the keyring \(versions 1, 2, 3\)/,
    );
    expect(() => removeKeyVersion(file, 3)).toThrow(/key version 3 is current/);
    removeKeyVersion(file, 1);
    const retired = loadKeyringFile(file).keyring;
    expect(retired.versions).toEqual([2, 3]);
    await expect(openValue({ kek: retired, clientId, subject, ...sealed })).rejects.toThrow(
      'key version 1 is not in the keyring (versions 2, 3)',
    );
    expect(fs.readdirSync(path.dirname(file))).toEqual(['vault-keyring.json']);
  });

  it('addKeyVersion refuses a file the vault would refuse', () => {
    createKeyringFile(file);
    fs.chmodSync(file, 0o666);
    expect(() => addKeyVersion(file)).toThrow(/writable by everyone/);
  });
});

describe('watchKeyringFile', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-keyring-watch-'));
    file = path.join(dir, 'vault-keyring.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Resolves once `predicate` holds (polled), or fails after 3 s. */
  async function until(predicate: () => boolean): Promise<void> {
    const deadline = Date.now() + 3_000;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('condition not reached in 3 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('picks up an added version without a restart; a bad file keeps the old keyring', async () => {
    createKeyringFile(file);
    const changes: number[][] = [];
    const errors: string[] = [];
    const handle = watchKeyringFile(file, {
      intervalMs: 20,
      onChange: (change) => changes.push([...change.versions]),
      onError: (err) => errors.push(err.message),
    });
    try {
      const kek = handle.keys;
      const sealed = await sealValue({ kek, clientId: 'c', subject: 'field:x', plaintext: 'v' });
      expect(sealed.keyVersion).toBe(1);

      addKeyVersion(file);
      await until(() => kek.currentVersion === 2);
      expect(changes).toEqual([[1, 2]]);
      const next = await sealValue({ kek, clientId: 'c', subject: 'field:x', plaintext: 'w' });
      expect(next.keyVersion).toBe(2);
      expect(await openValue({ kek, clientId: 'c', subject: 'field:x', ...sealed })).toBe('v');

      // A half-edited file: reported once, the keyring in use stays.
      fs.writeFileSync(file, '{"current": 3');
      await until(() => errors.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(errors).toEqual([
        `VAULT_KEYRING_FILE ${file} is not valid JSON (expected {"current": 1, "keys": [{"version": 1, "key": "<base64 of 32 bytes>"}]})`,
      ]);
      expect(kek.versions).toEqual([1, 2]);
      expect(await openValue({ kek, clientId: 'c', subject: 'field:x', ...next })).toBe('w');

      fs.rmSync(file);
      await until(() => errors.length > 1);
      expect(errors[1]).toBe(`VAULT_KEYRING_FILE ${file} does not exist`);
      expect(kek.currentVersion).toBe(2);
    } finally {
      await handle.close();
    }
  });

  it('refuses to start on a bad file', () => {
    fs.writeFileSync(file, 'nope', { mode: 0o600 });
    expect(() => watchKeyringFile(file)).toThrow(KeyringError);
  });
});
