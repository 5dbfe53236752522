import path from 'node:path';
import { createRedis, serviceInstancesKey } from '@svc/bus';
import { dataDirEnv, type EnvSource, loadEnv } from '@svc/config';
import {
  findWorkspaceRoot,
  type InstanceRecord,
  readInstanceRecords,
  resolveDataDir,
  SERVICE_NAMES,
} from '@svc/devstack';
import { createLogger } from '@svc/log';
import { z } from 'zod';
import { type BusLocation, locateBus } from '../platform-bus';

// `pnpm admin instances`: every process of the platform with the address of its health server
// (HEALTH_PORT: /healthz, /readyz, /metrics), which the public /readyz does not give (issue 23).
// Two sources: the records `pnpm start` and `pnpm worker` keep in <DATA_DIR>/instances/ (the
// addresses), and the bus presence every service but the gateway reports every 5 s (decisions P7:
// `<BUS_PREFIX>:services:<service>`, members `<host>-<pid>-<random>`), which also shows instances
// started elsewhere, whose address this machine cannot know.

/** ms one health probe may take. */
const PROBE_TIMEOUT_MS = 2_000;
/** ms to wait for the Redis connection (a producer connection fails commands until it is up). */
const CONNECT_TIMEOUT_MS = 2_000;
/** The gateway reports no presence (it reads the others'); its health port serves /metrics only. */
const UNANNOUNCED = new Set(['gateway']);

export interface InstanceRow {
  service: string;
  host: string;
  pid: number;
  /** Base URL of its health server; null for an instance known only from the bus. */
  health_url: string | null;
  /**
   * What its health server says: `ready` / `not ready` (its /readyz), `answering` (the gateway's
   * /metrics), `no answer`; null without an address.
   */
  health: 'ready' | 'not ready' | 'answering' | 'no answer' | null;
  /** Reported ready on the bus within 15 s; null for the gateway, or when the bus could not be read. */
  on_bus: boolean | null;
  /** `pnpm start`, `pnpm worker`, or null (started elsewhere). */
  started_by: string | null;
}

/** A presence member `<host>-<pid>-<random hex>` (bus service-presence.ts), split. */
export function parseInstanceId(id: string): { host: string; pid: number } | undefined {
  const match = /^(.+)-(\d+)-[0-9a-f]+$/.exec(id);
  return match?.[1] === undefined ? undefined : { host: match[1], pid: Number(match[2]) };
}

function order(service: string): number {
  const names: readonly string[] = SERVICE_NAMES;
  const index = names.indexOf(service);
  return index < 0 ? SERVICE_NAMES.length : index;
}

/**
 * One row per process: every record, and every bus member no record describes. `presence` maps a
 * service to its live member ids; undefined when the bus could not be read.
 */
export function mergeInstances(
  records: readonly InstanceRecord[],
  presence: Readonly<Record<string, readonly string[]>> | undefined,
): Omit<InstanceRow, 'health'>[] {
  const seen = new Set<string>();
  const rows: Omit<InstanceRow, 'health'>[] = [];
  for (const record of records) {
    const members = presence?.[record.service];
    const onBus =
      UNANNOUNCED.has(record.service) || members === undefined
        ? null
        : members.some((id) => {
            const parsed = parseInstanceId(id);
            return parsed?.host === record.host && parsed.pid === record.pid;
          });
    seen.add(`${record.service} ${record.host} ${record.pid}`);
    rows.push({
      service: record.service,
      host: record.host,
      pid: record.pid,
      health_url: record.healthUrl,
      on_bus: onBus,
      started_by: record.startedBy,
    });
  }
  for (const [service, members] of Object.entries(presence ?? {})) {
    for (const id of members) {
      const parsed = parseInstanceId(id);
      if (parsed === undefined || seen.has(`${service} ${parsed.host} ${parsed.pid}`)) continue;
      rows.push({ service, ...parsed, health_url: null, on_bus: true, started_by: null });
    }
  }
  return rows.sort(
    (a, b) => order(a.service) - order(b.service) || a.host.localeCompare(b.host) || a.pid - b.pid,
  );
}

/** The live member ids of every service's presence set, in one pipeline. */
async function readPresence(location: BusLocation): Promise<Record<string, string[]>> {
  const redis = createRedis(location.redisUrl, {
    role: 'producer',
    name: 'admin-instances',
    logger: createLogger({ service: 'admin', level: 'silent' }),
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no answer from Redis within ${CONNECT_TIMEOUT_MS / 1000} s (${location.origin})`),
          ),
        CONNECT_TIMEOUT_MS,
      );
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const pipeline = redis.pipeline();
    const now = Date.now();
    for (const service of SERVICE_NAMES) {
      pipeline.zrangebyscore(serviceInstancesKey(location.prefix, service), `(${now}`, '+inf');
    }
    const replies = (await pipeline.exec()) ?? [];
    return Object.fromEntries(
      SERVICE_NAMES.map((service, index) => {
        const [err, reply] = replies[index] ?? [new Error('no reply'), null];
        if (err !== null) throw err;
        return [service, Array.isArray(reply) ? reply.map(String) : []];
      }),
    );
  } finally {
    redis.disconnect();
  }
}

async function probe(service: string, healthUrl: string): Promise<InstanceRow['health']> {
  const gateway = UNANNOUNCED.has(service);
  try {
    const response = await fetch(`${healthUrl}${gateway ? '/metrics' : '/readyz'}`, {
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    if (gateway) return response.ok ? 'answering' : 'no answer';
    return response.status === 200 ? 'ready' : 'not ready';
  } catch {
    return 'no answer';
  }
}

const instancesEnv = z.object(dataDirEnv);

/** The records of DATA_DIR (relative to the workspace root, as the launcher reads it). */
function localRecords(env: EnvSource, cwd: string): InstanceRecord[] {
  const { DATA_DIR } = loadEnv(instancesEnv, env);
  let dataDir = DATA_DIR;
  try {
    dataDir = resolveDataDir(findWorkspaceRoot(cwd), DATA_DIR);
  } catch {
    // Outside the workspace: only an absolute DATA_DIR names the launcher's files.
    if (!path.isAbsolute(DATA_DIR)) return [];
  }
  return readInstanceRecords(dataDir);
}

/** `pnpm admin instances`. */
export async function executeInstances(
  env: EnvSource,
  cwd: string,
  report: (line: string) => void,
): Promise<InstanceRow[]> {
  const records = localRecords(env, cwd);
  let presence: Record<string, string[]> | undefined;
  try {
    const location = locateBus(env, cwd);
    presence = await readPresence(location);
  } catch (err) {
    // PlatformNotFoundError (no bus known) or Redis not answering: the records still answer.
    const reason = err instanceof Error ? err.message : String(err);
    report(`bus presence not read (instances started elsewhere are not listed): ${reason}`);
  }
  const rows = mergeInstances(records, presence);
  const probed = await Promise.all(
    rows.map(
      async (row): Promise<InstanceRow> => ({
        service: row.service,
        host: row.host,
        pid: row.pid,
        health_url: row.health_url,
        health: row.health_url === null ? null : await probe(row.service, row.health_url),
        on_bus: row.on_bus,
        started_by: row.started_by,
      }),
    ),
  );
  const unknown = probed.filter((row) => row.health_url === null).length;
  if (unknown > 0) {
    report(
      `${unknown} instance(s) report on the bus but were not started here by \`pnpm start\` or \`pnpm worker\`: ` +
        'their health address is not known on this machine',
    );
  }
  return probed;
}
