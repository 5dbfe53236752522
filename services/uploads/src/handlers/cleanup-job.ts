import { type Bus, processJobs, scheduleRepeatingJob } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { Closable } from '@svc/service-kit';
import { cleanupPass } from '../domain/cleanup';
import type { UploadsDeps } from '../domain/settings';

/**
 * The retention job (docs/decisions.md "Retention"): one `uploads.cleanup` job every `everyMs`
 * (a BullMQ job scheduler: one schedule for all replicas, one pass per interval), processed one at
 * a time here. The pass is idempotent, so a job that runs twice changes nothing more.
 *
 * The schedule is saved at start; when Redis is not reachable then, the service still starts (the
 * RPC and upload routes answer 503 on their own) and saving is retried every `everyMs`.
 */
export async function startCleanup(
  bus: Bus<PlatformCatalog>,
  deps: UploadsDeps,
  everyMs: number,
): Promise<Closable> {
  const processor = processJobs(bus, 'uploads.cleanup', async () => {
    const result = await cleanupPass(deps);
    if (result.expired_sessions + result.deleted_uploads + result.deleted_artifacts > 0) {
      deps.logger.info(result, 'cleanup pass');
    }
    return result;
  });
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const schedule = async (): Promise<void> => {
    try {
      await scheduleRepeatingJob(bus, 'uploads.cleanup', everyMs);
    } catch (err) {
      if (closed) return;
      deps.logger.warn({ err, retry_ms: everyMs }, 'cleanup schedule not saved; retrying');
      retry = setTimeout(() => void schedule(), everyMs);
    }
  };
  await schedule();
  return {
    name: 'cleanup worker',
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await processor.close();
    },
  };
}
