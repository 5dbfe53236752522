import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  displayPath,
  findWorkspaceRoot,
  type RuntimeInfo,
  readRuntimeInfo,
  removeRuntimeInfo,
  resolveDataDir,
  runtimeInfoPath,
  writeRuntimeInfo,
} from '../src/index';

describe('runtime info', () => {
  let root: string;
  let dataDir: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-runtime-'));
    dataDir = path.join(root, 'data dir');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const info: RuntimeInfo = {
    databaseUrl: 'postgres://postgres:postgres@127.0.0.1:5433/capability_service',
    redisUrl: 'redis://127.0.0.1:6379',
    gatewayUrl: 'http://127.0.0.1:8080',
    pid: 1234,
    startedAt: '2026-08-01T12:00:00.000Z',
    busPrefix: 'svc',
    busEncryptionKeyFile: '/tmp/data/bus-encryption-key',
    storageDir: '/tmp/data/objects',
  };

  it('is null before the launcher wrote it', () => {
    expect(readRuntimeInfo(dataDir)).toBeNull();
  });

  it('round-trips through <data dir>/runtime.json (created when missing), readable by the owner only', () => {
    writeRuntimeInfo(dataDir, info);
    expect(runtimeInfoPath(dataDir)).toBe(path.join(dataDir, 'runtime.json'));
    expect(readRuntimeInfo(dataDir)).toEqual(info);
    expect(fs.statSync(runtimeInfoPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dataDir)).toEqual(['runtime.json']); // no temp file left
    removeRuntimeInfo(dataDir);
    expect(readRuntimeInfo(dataDir)).toBeNull();
    removeRuntimeInfo(dataDir); // already gone: fine
  });

  it('names the file when it is malformed or incomplete', () => {
    fs.mkdirSync(dataDir);
    fs.writeFileSync(runtimeInfoPath(dataDir), '{"databaseUrl":');
    expect(() => readRuntimeInfo(dataDir)).toThrow(`${runtimeInfoPath(dataDir)} is not valid JSON`);
    fs.writeFileSync(runtimeInfoPath(dataDir), JSON.stringify({ ...info, pid: 'x' }));
    expect(() => readRuntimeInfo(dataDir)).toThrow(/lacks databaseUrl/);
    // A record without the bus settings cannot lead a client to the platform (issue 23).
    const { busPrefix: _dropped, ...older } = info;
    fs.writeFileSync(runtimeInfoPath(dataDir), JSON.stringify(older));
    expect(() => readRuntimeInfo(dataDir)).toThrow(/busPrefix.*restart `pnpm start`/);
  });

  it('keeps a null busEncryptionKeyFile (the operator gave BUS_ENCRYPTION_KEY)', () => {
    writeRuntimeInfo(dataDir, { ...info, busEncryptionKeyFile: null });
    expect(readRuntimeInfo(dataDir)?.busEncryptionKeyFile).toBeNull();
  });

  it('finds the workspace root from a nested directory, and fails outside any workspace', () => {
    fs.writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages: []\n');
    const nested = path.join(root, 'packages', 'x', 'src');
    fs.mkdirSync(nested, { recursive: true });
    expect(findWorkspaceRoot(nested)).toBe(root);
    expect(findWorkspaceRoot(__dirname)).toBe(path.resolve(__dirname, '..', '..', '..'));
    expect(() => findWorkspaceRoot(os.tmpdir())).toThrow(/no pnpm-workspace.yaml/);
  });
});

describe('data directory paths', () => {
  const root = path.join(path.sep, 'work', 'repo');

  it('resolves DATA_DIR against the workspace root; an absolute one stays', () => {
    expect(resolveDataDir(root, '.data')).toBe(path.join(root, '.data'));
    expect(resolveDataDir(root, '../shared/data')).toBe(path.join(path.sep, 'work', 'shared', 'data'));
    expect(resolveDataDir(root, '/var/lib/svc')).toBe('/var/lib/svc');
  });

  it('shows a path relative to the root when inside it, else absolute', () => {
    expect(displayPath(root, path.join(root, '.data', 'dev-key.json'))).toBe(
      path.join('.data', 'dev-key.json'),
    );
    expect(displayPath(root, path.join(root, '..data', 'x'))).toBe(path.join('..data', 'x'));
    expect(displayPath(root, root)).toBe('.');
    expect(displayPath(root, '/tmp/svc/dev-key.json')).toBe('/tmp/svc/dev-key.json');
    expect(displayPath(root, path.join(root, '..', 'other', 'runtime.json'))).toBe(
      path.join(path.sep, 'work', 'other', 'runtime.json'),
    );
  });
});
