import type { Bus } from '@svc/bus';

/**
 * Resolves when `redis` is ready or after `maxWaitMs`, whichever comes first. The bus's producer
 * connection fails commands at once until it is connected (enableOfflineQueue: false), so a command
 * sent right after start-up would fail for no reason; after the wait, a command that still fails is
 * a real outage.
 */
export function waitForReady(redis: Bus['redis'], maxWaitMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, maxWaitMs);
    redis.once('ready', done);
  });
}
