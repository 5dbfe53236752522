import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeRuntimeInfo } from '@svc/devstack';
import { resolveBusSettings } from './revocation-event';

const KEY_TEXT = Buffer.alloc(32, 7).toString('base64');
const ROOT = path.resolve(__dirname, '../../..');

describe('resolveBusSettings (where revoke-key publishes apikey.revoked)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-bus-'));
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes REDIS_URL, BUS_PREFIX and BUS_ENCRYPTION_KEY from the environment', () => {
    const settings = resolveBusSettings(
      { REDIS_URL: 'redis://10.0.0.5:6380', BUS_PREFIX: 'prod', BUS_ENCRYPTION_KEY: KEY_TEXT },
      ROOT,
    );
    expect(settings).toMatchObject({ redisUrl: 'redis://10.0.0.5:6380', prefix: 'prod' });
    expect(settings?.encryptionKeys.map((key) => Buffer.from(key).toString('base64'))).toEqual([KEY_TEXT]);
  });

  it("uses `pnpm start`'s Redis and key when the database is found the same way", () => {
    writeRuntimeInfo(dataDir, {
      databaseUrl: 'postgres://x@127.0.0.1:5432/svc',
      redisUrl: 'redis://127.0.0.1:6399',
      gatewayUrl: 'http://127.0.0.1:8080',
      pid: process.pid,
      startedAt: new Date().toISOString(),
    });
    fs.writeFileSync(path.join(dataDir, 'bus-encryption-key'), `${KEY_TEXT}\n`);
    expect(resolveBusSettings({ DATA_DIR: dataDir }, ROOT)).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6399',
      prefix: 'svc',
    });
    // An explicit DATABASE_URL is another deployment: its bus is not guessed from the local stack.
    expect(
      resolveBusSettings({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://x@db/svc' }, ROOT),
    ).toBeUndefined();
  });

  it('says nothing can be published when neither is there', () => {
    expect(resolveBusSettings({ DATA_DIR: dataDir }, ROOT)).toBeUndefined();
    expect(
      resolveBusSettings({ REDIS_URL: 'redis://127.0.0.1:6379', DATA_DIR: dataDir }, ROOT),
    ).toBeUndefined();
  });
});
