// What one operation costs the platform, in CPU ms per process (issue 25 item 1): the figure that
// carries between machines, where throughput on a shared 2-core machine does not. Read from /proc
// over a measured window: each platform process (the gateway, every service and worker replica),
// the PostgreSQL backends serving the platform's database (not the bench's own connections), and
// Redis's own account of its CPU (INFO cpu: the whole server, so the bench's few commands are in
// it). The load generator and the fake providers are not counted. Beside the CPU, the write
// transactions PostgreSQL assigned an id to (every commit that wrote, cluster-wide) per operation.
import type { ServiceName, StackReplica, TestStack } from '@svc/testkit';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { formatColumns } from './columns';
import { processCpuSeconds } from './cpu-usage';

/** The application_name of the bench's own PostgreSQL connections: their backends are not counted. */
export const BENCH_APPLICATION_NAME = 'svc-bench';
// ms between two looks at the database's backends during a window: a backend that starts and
// ends between two looks is missed (the services keep pooled connections, so that is rare).
const BACKEND_SAMPLE_MS = 500;

/** CPU per operation over one window. */
export interface CpuCost {
  label: string;
  operations: number;
  /** ms of CPU per operation, by platform process (null: unreadable, e.g. it exited). */
  processes: Record<string, number | null>;
  /** Sum of `processes`. */
  platformMs: number;
  /** ms per operation of the PostgreSQL backends serving the platform's database. */
  postgresMs: number;
  /** Backends counted, and those that ended during the window with CPU not read since the last look. */
  backends: { counted: number; lost: number };
  /** ms per operation of the Redis server (null: INFO cpu not readable). */
  redisMs: number | null;
  /** Write transactions (xids assigned, cluster-wide) per operation. */
  writeTransactions: number;
}

export interface CostWindow {
  /** Ends the window: the CPU used since it started, divided by `operations`. */
  end(operations: number): Promise<CpuCost>;
}

/** Where a meter reads: the stack's processes (its replicas as they are when a window starts). */
export interface CostSubjects {
  stack: TestStack;
  /** Service names of the stack whose process is counted. */
  services: readonly ServiceName[];
  /** Replicas of `service` started beside the stack (a second worker), as they are at each window's start. */
  replicas?: () => readonly StackReplica[];
}

interface BackendSample {
  /** CPU s when first seen in the window (0 for a backend that started in it). */
  first: number;
  /** CPU s at the last look. */
  last: number;
  gone: boolean;
}

export interface CostMeter {
  /** Starts a window now (after any warm-up): `end(operations)` reads it. */
  start(label: string): Promise<CostWindow>;
  close(): Promise<void>;
}

/** Opens the connections a meter reads through; `close()` when the bench is done. */
export async function openCostMeter(subjects: CostSubjects): Promise<CostMeter> {
  const pg = new Client({
    connectionString: subjects.stack.databaseUrl,
    application_name: BENCH_APPLICATION_NAME,
  });
  await pg.connect();
  const redis = new Redis(subjects.stack.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();

  const processPids = (): Record<string, number | undefined> => {
    const pids: Record<string, number | undefined> = {};
    for (const name of subjects.services) pids[name] = subjects.stack.pid(name);
    for (const [i, replica] of (subjects.replicas?.() ?? []).entries())
      pids[`${replica.name}#${i + 2}`] = replica.pid;
    return pids;
  };

  /** Backends of the platform's database now, with when each started (epoch ms). */
  const backendPids = async (): Promise<Array<{ pid: number; startedMs: number }>> => {
    const { rows } = await pg.query<{ pid: number; started_ms: string }>(
      `SELECT pid, (extract(epoch FROM backend_start) * 1000)::bigint AS started_ms
         FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend'
          AND application_name IS DISTINCT FROM $1`,
      [BENCH_APPLICATION_NAME],
    );
    return rows.map((row) => ({ pid: row.pid, startedMs: Number(row.started_ms) }));
  };

  const redisCpuSeconds = async (): Promise<number | null> => {
    try {
      const info = await redis.info('cpu');
      const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1]);
      const total = field('used_cpu_sys') + field('used_cpu_user');
      return Number.isFinite(total) ? total : null;
    } catch {
      return null;
    }
  };

  const writeXid = async (): Promise<number> => {
    const { rows } = await pg.query<{ xmax: string }>(
      'SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax',
    );
    return Number(rows[0]?.xmax ?? 0);
  };

  const start = async (label: string): Promise<CostWindow> => {
    const startedMs = Date.now();
    const pids = processPids();
    const before = Object.fromEntries(
      Object.entries(pids).map(([name, pid]) => [name, processCpuSeconds(pid)]),
    );
    const backends = new Map<number, BackendSample>();
    const look = async () => {
      const seen = new Set<number>();
      for (const { pid, startedMs: backendStart } of await backendPids()) {
        seen.add(pid);
        const cpu = processCpuSeconds(pid);
        if (cpu === null) continue;
        const sample = backends.get(pid);
        if (sample === undefined)
          backends.set(pid, { first: backendStart >= startedMs ? 0 : cpu, last: cpu, gone: false });
        else sample.last = cpu;
      }
      for (const [pid, sample] of backends) if (!seen.has(pid)) sample.gone = true;
    };
    await look();
    const redisBefore = await redisCpuSeconds();
    const xidBefore = await writeXid();
    let looking = Promise.resolve();
    const timer = setInterval(() => {
      looking = looking.then(look).catch(() => undefined);
    }, BACKEND_SAMPLE_MS);

    return {
      async end(operations: number): Promise<CpuCost> {
        clearInterval(timer);
        await looking;
        await look();
        const xidAfter = await writeXid();
        const redisAfter = await redisCpuSeconds();
        const perOp = (seconds: number) => (seconds * 1000) / Math.max(1, operations);
        const processes: Record<string, number | null> = {};
        for (const [name, pid] of Object.entries(pids)) {
          const from = before[name];
          const to = processCpuSeconds(pid);
          processes[name] = from === null || from === undefined || to === null ? null : perOp(to - from);
        }
        let postgres = 0;
        let lost = 0;
        for (const sample of backends.values()) {
          postgres += sample.last - sample.first;
          if (sample.gone) lost += 1;
        }
        return {
          label,
          operations,
          processes,
          platformMs: Object.values(processes).reduce<number>((sum, v) => sum + (v ?? 0), 0),
          postgresMs: perOp(postgres),
          backends: { counted: backends.size, lost },
          redisMs: redisBefore === null || redisAfter === null ? null : perOp(redisAfter - redisBefore),
          writeTransactions: (xidAfter - xidBefore) / Math.max(1, operations),
        };
      },
    };
  };

  return {
    start,
    close: async () => {
      await pg.end().catch(() => undefined);
      redis.disconnect();
    },
  };
}

const ms = (value: number | null) => (value === null ? '-' : value.toFixed(2));

/**
 * One table for a scenario: a row per window (phase), the CPU ms per operation of each process,
 * the platform's sum, PostgreSQL's backends and Redis, and the write transactions per operation.
 */
export function formatCpuCost(unit: string, costs: readonly CpuCost[]): string {
  const names = [...new Set(costs.flatMap((cost) => Object.keys(cost.processes)))];
  const header = ['phase', 'ops', ...names, 'platform', 'PostgreSQL', 'Redis', 'write tx'];
  const rows = costs.map((cost) => [
    cost.label,
    String(cost.operations),
    ...names.map((name) => ms(cost.processes[name] ?? null)),
    ms(cost.platformMs),
    ms(cost.postgresMs) + (cost.backends.lost > 0 ? ` (${cost.backends.lost} lost)` : ''),
    ms(cost.redisMs),
    cost.writeTransactions.toFixed(2),
  ]);
  return [
    `CPU ms per ${unit} (platform: the processes named; PostgreSQL: the platform's backends; Redis: the whole server; write tx: xids assigned per ${unit})`,
    formatColumns(header, rows),
  ].join('\n');
}

/** A phase's CPU per operation beside a target, e.g. `platform 15.72 ms (target ≤ 4: MISSED)`. */
export function costTargetLine(cost: CpuCost, target: { platformMs: number; postgresMs: number }): string {
  const verdict = (value: number, bound: number) => `target ≤ ${bound}: ${value <= bound ? 'met' : 'MISSED'}`;
  return (
    `CPU per operation: platform ${cost.platformMs.toFixed(2)} ms (${verdict(cost.platformMs, target.platformMs)}), ` +
    `PostgreSQL ${cost.postgresMs.toFixed(2)} ms (${verdict(cost.postgresMs, target.postgresMs)})`
  );
}

/** Two windows of one operation as one (e.g. the halves of an alternated measurement), by operation. */
export function mergeCpuCosts(a: CpuCost, b: CpuCost): CpuCost {
  const operations = a.operations + b.operations;
  const mean = (x: number, y: number) => (x * a.operations + y * b.operations) / Math.max(1, operations);
  const nullable = (x: number | null | undefined, y: number | null | undefined) =>
    x === null || x === undefined || y === null || y === undefined ? null : mean(x, y);
  const names = new Set([...Object.keys(a.processes), ...Object.keys(b.processes)]);
  return {
    label: a.label,
    operations,
    processes: Object.fromEntries(
      [...names].map((name) => [name, nullable(a.processes[name], b.processes[name])]),
    ),
    platformMs: mean(a.platformMs, b.platformMs),
    postgresMs: mean(a.postgresMs, b.postgresMs),
    backends: {
      counted: Math.max(a.backends.counted, b.backends.counted),
      lost: a.backends.lost + b.backends.lost,
    },
    redisMs: nullable(a.redisMs, b.redisMs),
    writeTransactions: mean(a.writeTransactions, b.writeTransactions),
  };
}

/** The CPU table of the rows measured with a meter (each row's name as its phase); '' when none was. */
export function formatRowCosts(rows: readonly { name: string; cost?: CpuCost }[]): string {
  const costs = rows.flatMap((row) => (row.cost ? [{ ...row.cost, label: row.name }] : []));
  return costs.length === 0 ? '' : `\n${formatCpuCost('request', costs)}`;
}
