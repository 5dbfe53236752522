import type { Bus } from '@svc/bus';
import { capabilityWorkersKey } from '@svc/contracts';
import { ServiceUnavailableError } from '@svc/errors';
import type { Logger } from '@svc/log';
import type { WorkerAvailability } from '../domain/get-run';

/**
 * The orchestrator's ports on shared Redis keys (not on queues): the capability worker sets the
 * workers' heartbeats keep (@svc/contracts keys.ts). They use the bus's producer connection for
 * quick commands only.
 */
export type RedisHandle = Pick<Bus, 'redis' | 'prefix'>;

/**
 * Whether a worker that serves the capability is up: `ZCOUNT capabilityWorkersKey <now> +inf` > 0
 * (workers score their id with the time their heartbeat lapses, in the set of every capability they
 * serve: a pool of WORKER_CAPABILITIES only in its own). Redis unanswerable → false, logged: the
 * answer only colours a message, it must not fail the request.
 */
export function workerAvailability(bus: RedisHandle, logger: Logger): WorkerAvailability {
  return async ({ slug, runtime }) => {
    try {
      const redis = await readyRedis(bus);
      return (await redis.zcount(capabilityWorkersKey(bus.prefix, slug), Date.now(), '+inf')) > 0;
    } catch (err) {
      logger.warn({ slug, runtime, err }, 'worker availability unknown (Redis); reporting none up');
      return false;
    }
  };
}

/** ms: how long a command waits for the producer connection's first connect before 503. */
const CONNECT_WAIT_MS = 2_000;

/**
 * The bus's producer connection once it takes commands (it has no offline queue: a command sent while
 * it connects fails at once). Waits up to CONNECT_WAIT_MS while it connects; 503 otherwise.
 */
export async function readyRedis(bus: RedisHandle): Promise<Bus['redis']> {
  const redis = bus.redis;
  if (redis.status === 'ready') return redis;
  if (redis.status === 'connecting' || redis.status === 'connect' || redis.status === 'reconnecting') {
    const ready = await new Promise<boolean>((resolve) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        resolve(false);
      }, CONNECT_WAIT_MS);
      redis.once('ready', onReady);
    });
    if (ready) return redis;
  }
  throw new ServiceUnavailableError('message bus is unavailable');
}
