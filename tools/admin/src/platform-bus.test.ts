import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RuntimeInfo, writeRuntimeInfo } from '@svc/devstack';
import { locateBus, PlatformNotFoundError, resolveBusSettings } from './platform-bus';

const KEY_TEXT = Buffer.alloc(32, 7).toString('base64');
const OTHER_KEY = Buffer.alloc(32, 9).toString('base64');
const ROOT = path.resolve(__dirname, '../../..');

function keysOf(settings: { encryptionKeys: readonly Uint8Array[] }): string[] {
  return settings.encryptionKeys.map((key) => Buffer.from(key).toString('base64'));
}

describe('the bus the CLI reaches the platform on (vault commands, revoke-key, instances)', () => {
  let dataDir: string;
  let keyFile: string;
  /** A `pnpm start` given DATABASE_URL and BUS_PREFIX=blue, as its launcher records it. */
  let stack: RuntimeInfo;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-bus-'));
    keyFile = path.join(dataDir, 'bus-encryption-key');
    fs.writeFileSync(keyFile, `${KEY_TEXT}\n`);
    stack = {
      databaseUrl: 'postgres://app:pw@127.0.0.1:5432/svc',
      redisUrl: 'redis://127.0.0.1:6399',
      gatewayUrl: 'http://127.0.0.1:8080',
      pid: process.pid,
      startedAt: new Date().toISOString(),
      busPrefix: 'blue',
      busEncryptionKeyFile: keyFile,
      storageDir: path.join(dataDir, 'objects'),
    };
    writeRuntimeInfo(dataDir, stack);
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("finds the running `pnpm start`'s Redis, BUS_PREFIX and key, also with the same DATABASE_URL exported", () => {
    // Issue 23: DATABASE_URL exported for `pnpm start` made the CLI give up on the local stack, and
    // the default prefix `svc` was used instead of the one the launcher was given.
    for (const env of [{ DATA_DIR: dataDir }, { DATA_DIR: dataDir, DATABASE_URL: stack.databaseUrl }]) {
      const settings = resolveBusSettings(env, ROOT);
      expect(settings).toMatchObject({ redisUrl: 'redis://127.0.0.1:6399', prefix: 'blue' });
      expect(keysOf(settings)).toEqual([KEY_TEXT]);
      expect(settings.origin).toContain(`launcher pid ${process.pid}`);
    }
  });

  it('names the variable to set when the stack was given BUS_ENCRYPTION_KEY, and takes it when set', () => {
    writeRuntimeInfo(dataDir, { ...stack, busEncryptionKeyFile: null });
    expect(() => resolveBusSettings({ DATA_DIR: dataDir }, ROOT)).toThrow(
      /was given BUS_ENCRYPTION_KEY by its environment: set the same BUS_ENCRYPTION_KEY here/,
    );
    const settings = resolveBusSettings({ DATA_DIR: dataDir, BUS_ENCRYPTION_KEY: OTHER_KEY }, ROOT);
    expect(keysOf(settings)).toEqual([OTHER_KEY]);
    expect(settings.prefix).toBe('blue');
  });

  it('says so when BUS_PREFIX set here differs from the one the stack uses', () => {
    const location = locateBus({ DATA_DIR: dataDir, BUS_PREFIX: 'svc' }, ROOT);
    expect(location.prefix).toBe('svc');
    expect(location.origin).toContain(
      'BUS_PREFIX=svc as set here, while its services use blue: unset BUS_PREFIX',
    );
  });

  it('takes REDIS_URL, BUS_PREFIX and BUS_ENCRYPTION_KEY of another deployment from the environment', () => {
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://x@db:5432/prod',
      REDIS_URL: 'redis://10.0.0.5:6380',
      BUS_PREFIX: 'prod',
      BUS_ENCRYPTION_KEY: OTHER_KEY,
    };
    const settings = resolveBusSettings(env, ROOT);
    expect(settings).toMatchObject({ redisUrl: 'redis://10.0.0.5:6380', prefix: 'prod' });
    expect(keysOf(settings)).toEqual([OTHER_KEY]);
  });

  it('never guesses the bus of another deployment: the error names what to set', () => {
    // Another DATABASE_URL than the stack's: the stack's bus is not used.
    const other = { DATA_DIR: dataDir, DATABASE_URL: 'postgres://x@db:5432/prod' };
    expect(() => resolveBusSettings(other, ROOT)).toThrow(PlatformNotFoundError);
    expect(() => resolveBusSettings(other, ROOT)).toThrow(
      /DATABASE_URL names another database than the running `pnpm start`.*set REDIS_URL, BUS_PREFIX and BUS_ENCRYPTION_KEY/,
    );
    // No stack at all; then REDIS_URL alone is not enough.
    const empty = path.join(dataDir, 'nothing');
    expect(() => resolveBusSettings({ DATA_DIR: empty }, ROOT)).toThrow(
      /no running `pnpm start` \(no .*runtime\.json\): start the platform with `pnpm start`, or set REDIS_URL/,
    );
    expect(() => resolveBusSettings({ DATA_DIR: empty, REDIS_URL: 'redis://127.0.0.1:6379' }, ROOT)).toThrow(
      'BUS_ENCRYPTION_KEY is not set: set it to the key of the services on redis://127.0.0.1:6379, BUS_PREFIX=svc (the default)',
    );
  });
});
