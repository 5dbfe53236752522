// The worker processes serving a stack, as they announce themselves: one heartbeat key per worker
// and runtime, `<BUS_PREFIX>:workers:<runtime>:<worker id>`, holding JSON with its concurrency
// (services/worker/src/domain/heartbeat.ts). The bench prints what the workers really run with.
import { Redis } from 'ioredis';

export interface WorkerAnnouncement {
  workerId: string;
  pid: number | null;
  /** WORKER_CONCURRENCY of that process: jobs it runs at once per queue. */
  concurrency: number | null;
}

/** Workers with a live heartbeat for `runtime` (default `node`) under `prefix`. */
export async function announcedWorkers(
  redisUrl: string,
  prefix: string,
  runtime = 'node',
): Promise<WorkerAnnouncement[]> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined); // a failure surfaces as the rejected command below
  await redis.connect();
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:workers:${runtime}:*`, 'COUNT', 100);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    const values = keys.length === 0 ? [] : await redis.mget(keys);
    return keys.map((key, i) => {
      const parsed: unknown = JSON.parse(values[i] ?? 'null');
      const value: Record<string, unknown> =
        typeof parsed === 'object' && parsed !== null ? { ...parsed } : {};
      const { pid, concurrency } = value;
      return {
        workerId: key.slice(`${prefix}:workers:${runtime}:`.length),
        pid: typeof pid === 'number' ? pid : null,
        concurrency: typeof concurrency === 'number' ? concurrency : null,
      };
    });
  } finally {
    redis.disconnect();
  }
}
