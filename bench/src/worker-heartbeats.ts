// The worker processes serving a stack, as they announce themselves: one heartbeat key per worker
// and runtime, `<BUS_PREFIX>:workers:<runtime>:<worker id>`, holding JSON with its concurrency
// (services/worker/src/adapters/worker-presence.ts). The bench prints what the workers really run with.
import { scanKeysWithPrefix } from '@svc/testkit';

export interface WorkerAnnouncement {
  workerId: string;
  pid: number | null;
  /** WORKER_CONCURRENCY of that process: jobs it runs at once per queue. */
  concurrency: number | null;
}

function announcement(workerId: string, json: string | null): WorkerAnnouncement {
  const parsed: unknown = JSON.parse(json ?? 'null');
  const value: Record<string, unknown> = typeof parsed === 'object' && parsed !== null ? { ...parsed } : {};
  const { pid, concurrency } = value;
  return {
    workerId,
    pid: typeof pid === 'number' ? pid : null,
    concurrency: typeof concurrency === 'number' ? concurrency : null,
  };
}

/** Workers with a live heartbeat for `runtime` (default `node`) under `prefix`. */
export async function announcedWorkers(
  redisUrl: string,
  prefix: string,
  runtime = 'node',
): Promise<WorkerAnnouncement[]> {
  const family = `${prefix}:workers:${runtime}`;
  const workers: WorkerAnnouncement[] = [];
  await scanKeysWithPrefix(redisUrl, family, async (redis, keys) => {
    const values = await redis.mget(keys);
    keys.forEach((key, i) => {
      workers.push(announcement(key.slice(`${family}:`.length), values[i] ?? null));
    });
  });
  return workers;
}
