import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type InstanceRecord,
  instancesDir,
  readInstanceRecords,
  removeInstanceRecord,
  writeInstanceRecord,
} from '../src/index';

describe('instance records (<DATA_DIR>/instances/, read by `pnpm admin instances`)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-instances-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const live = (service: string, pid: number): InstanceRecord => ({
    service,
    pid,
    host: os.hostname(),
    healthUrl: 'http://127.0.0.1:8086',
    startedBy: 'pnpm start',
    startedAt: '2026-12-07T10:00:00.000Z',
  });

  it('is empty before anything was recorded', () => {
    expect(readInstanceRecords(dataDir)).toEqual([]);
  });

  it('keeps one 0600 file per live process, drops those of dead ones, removes on exit', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeInstanceRecord(dataDir, live('worker', process.pid));
    writeInstanceRecord(dataDir, live('gateway', process.ppid));
    writeInstanceRecord(dataDir, live('worker', dead));
    fs.writeFileSync(path.join(instancesDir(dataDir), 'vault-1.json'), '{"half":');
    expect(readInstanceRecords(dataDir)).toEqual([
      live('gateway', process.ppid),
      live('worker', process.pid),
    ]);
    // The dead process's record and the unreadable file are gone; no temp file is left.
    expect(fs.readdirSync(instancesDir(dataDir)).sort()).toEqual([
      `gateway-${process.ppid}.json`,
      `worker-${process.pid}.json`,
    ]);
    expect(fs.statSync(path.join(instancesDir(dataDir), `worker-${process.pid}.json`)).mode & 0o777).toBe(
      0o600,
    );
    removeInstanceRecord(dataDir, 'worker', process.pid);
    removeInstanceRecord(dataDir, 'worker', process.pid); // gone already: fine
    expect(readInstanceRecords(dataDir)).toEqual([live('gateway', process.ppid)]);
  });
});
