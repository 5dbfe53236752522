// The worker processes serving a stack, as they announce themselves: one heartbeat key per worker
// and runtime, `<BUS_PREFIX>:workers:<runtime>:<worker id>`, holding JSON with its slots
// (services/worker/src/adapters/worker-presence.ts). The bench prints what the workers really run with.
import { scanKeysWithPrefix } from '@svc/testkit';

export interface WorkerAnnouncement {
  workerId: string;
  pid: number | null;
  /** Runs of each capability that process runs at once, by slug (its workload, WORKER_SLOTS…). */
  slots: Readonly<Record<string, number>>;
}

/** The slots of `slug` a worker announced; null when it did not say. */
export function slotsOf(worker: WorkerAnnouncement, slug: string): number | null {
  return worker.slots[slug] ?? null;
}

function announcement(workerId: string, json: string | null): WorkerAnnouncement {
  const parsed: unknown = JSON.parse(json ?? 'null');
  const value: Record<string, unknown> = typeof parsed === 'object' && parsed !== null ? { ...parsed } : {};
  const { pid, slots } = value;
  const announced: Record<string, number> = {};
  if (typeof slots === 'object' && slots !== null) {
    for (const [slug, count] of Object.entries(slots)) if (typeof count === 'number') announced[slug] = count;
  }
  return { workerId, pid: typeof pid === 'number' ? pid : null, slots: announced };
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
