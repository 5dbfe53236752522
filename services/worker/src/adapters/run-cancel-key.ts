import type { Bus } from '@svc/bus';
import { runCancelKey } from '@svc/contracts';
import { waitForReady } from './redis-ready';

/** ms: how long the cancel-key check waits for the bus connection before it counts as an outage. */
const CONNECT_WAIT_MS = 2_000;

/**
 * Whether the orchestrator has set the cancel key of `runId` (it sets it before publishing
 * `run.cancel-requested`, and for a run still queued). Rejects when Redis is down: the job then
 * fails its attempt and BullMQ retries it.
 */
export async function isCancelRequested(bus: Pick<Bus, 'redis' | 'prefix'>, runId: string): Promise<boolean> {
  await waitForReady(bus.redis, CONNECT_WAIT_MS);
  return (await bus.redis.exists(runCancelKey(bus.prefix, runId))) > 0;
}
