import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  findWorkspaceRoot,
  type RuntimeInfo,
  readRuntimeInfo,
  removeRuntimeInfo,
  runtimeInfoPath,
  writeRuntimeInfo,
} from '../src/index';

describe('runtime info', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-runtime-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const info: RuntimeInfo = {
    databaseUrl: 'postgres://postgres:postgres@127.0.0.1:5433/capability_service',
    redisUrl: 'redis://127.0.0.1:6379',
    gatewayUrl: 'http://127.0.0.1:8080',
    pid: 1234,
    startedAt: '2026-08-01T12:00:00.000Z',
  };

  it('is null before the launcher wrote it', () => {
    expect(readRuntimeInfo(root)).toBeNull();
  });

  it('round-trips through .data/runtime.json, readable by the owner only', () => {
    writeRuntimeInfo(root, info);
    expect(runtimeInfoPath(root)).toBe(path.join(root, '.data', 'runtime.json'));
    expect(readRuntimeInfo(root)).toEqual(info);
    expect(fs.statSync(runtimeInfoPath(root)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.join(root, '.data'))).toEqual(['runtime.json']); // no temp file left
    removeRuntimeInfo(root);
    expect(readRuntimeInfo(root)).toBeNull();
    removeRuntimeInfo(root); // already gone: fine
  });

  it('names the file when it is malformed or incomplete', () => {
    fs.mkdirSync(path.join(root, '.data'));
    fs.writeFileSync(runtimeInfoPath(root), '{"databaseUrl":');
    expect(() => readRuntimeInfo(root)).toThrow(`${runtimeInfoPath(root)} is not valid JSON`);
    fs.writeFileSync(runtimeInfoPath(root), JSON.stringify({ ...info, pid: 'x' }));
    expect(() => readRuntimeInfo(root)).toThrow(/lacks databaseUrl/);
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
