import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { busEncryptionKeyPath } from '@svc/devstack';
import { ensureBusEncryptionKey } from './local-secrets';

describe('ensureBusEncryptionKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bus-key-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('makes a 32-byte base64 key once, readable only by its owner, and reuses it', () => {
    const file = busEncryptionKeyPath(dir);
    const key = ensureBusEncryptionKey(file);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(ensureBusEncryptionKey(file)).toBe(key);
  });

  it('replaces a file that does not hold a 32-byte key', () => {
    const file = busEncryptionKeyPath(dir);
    fs.writeFileSync(file, 'not a key\n');
    const key = ensureBusEncryptionKey(file);
    expect(key).not.toBe('not a key');
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
  });
});
