import fs from 'node:fs';
import path from 'node:path';
import { hasFieldTypes, writeJsonFileAtomic } from './json-file';
import { isProcessAlive } from './postmaster-pid';

/**
 * Where each service process of a local platform can be asked for its health, metrics and
 * readiness: one file per process in `<DATA_DIR>/instances/`, written by whoever started it
 * (`pnpm start` for its services, `pnpm worker` for every extra worker) and removed when it exits.
 * `pnpm admin instances` reads them (issue 23: a worker started with HEALTH_PORT=0 showed its
 * address only in a JSON log line). One file per process, not one shared file: several writers
 * (the launcher, any number of `pnpm worker`) never rewrite each other's records.
 */
export interface InstanceRecord {
  /** The service name (`worker`, `gateway`, …). */
  service: string;
  pid: number;
  /** os.hostname() of the process: with the pid it names the process in the bus presence ids. */
  host: string;
  /** Base URL of its HEALTH_PORT server (`http://127.0.0.1:<port>`): /healthz, /readyz, /metrics. */
  healthUrl: string;
  /** `pnpm start` or `pnpm worker`. */
  startedBy: string;
  /** ISO 8601. */
  startedAt: string;
}

/** `<DATA_DIR>/instances`. */
export function instancesDir(dataDir: string): string {
  return path.join(dataDir, 'instances');
}

function recordFile(dataDir: string, service: string, pid: number): string {
  return path.join(instancesDir(dataDir), `${service}-${pid}.json`);
}

/** Writes (atomically) the record of one process. */
export function writeInstanceRecord(dataDir: string, record: InstanceRecord): void {
  writeJsonFileAtomic(recordFile(dataDir, record.service, record.pid), record);
}

/** Removes the record of one process (no error when it is gone already). */
export function removeInstanceRecord(dataDir: string, service: string, pid: number): void {
  fs.rmSync(recordFile(dataDir, service, pid), { force: true });
}

function isInstanceRecord(value: unknown): value is InstanceRecord {
  return hasFieldTypes(value, {
    service: 'string',
    pid: 'number',
    host: 'string',
    healthUrl: 'string',
    startedBy: 'string',
    startedAt: 'string',
  });
}

/**
 * The records of processes still alive, sorted by service then pid. Records of dead processes
 * (a launcher or `pnpm worker` that was SIGKILLed) and unreadable files are deleted on the way.
 */
export function readInstanceRecords(dataDir: string): InstanceRecord[] {
  const dir = instancesDir(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const records: InstanceRecord[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let value: unknown;
    try {
      value = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      value = undefined; // half-written by a writer that died, or not ours
    }
    if (isInstanceRecord(value) && isProcessAlive(value.pid)) records.push(value);
    else fs.rmSync(file, { force: true });
  }
  return records.sort((a, b) => a.service.localeCompare(b.service) || a.pid - b.pid);
}
