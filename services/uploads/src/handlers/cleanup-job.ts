import { type Bus, runScheduledJob } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { Closable } from '@svc/service-kit';
import { cleanupPass } from '../domain/cleanup';
import type { UploadsDeps } from '../domain/settings';

/**
 * The retention job (docs/decisions.md "Retention"): one `uploads.cleanup` job every `everyMs`
 * (a BullMQ job scheduler: one schedule for all replicas, one pass per interval), processed one at
 * a time here. The pass is idempotent, so a job that runs twice changes nothing more.
 *
 * The schedule lives only in Redis: `keepJobScheduled` saves it at start and again whenever Redis
 * comes back without it (restarted empty), within seconds. When Redis is not reachable at start the
 * service still starts (the RPC and upload routes answer 503 on their own) and saving is retried.
 */
export async function startCleanup(
  bus: Bus<PlatformCatalog>,
  deps: UploadsDeps,
  everyMs: number,
): Promise<Closable> {
  const job = await runScheduledJob(bus, 'uploads.cleanup', everyMs, async () => {
    const result = await cleanupPass(deps);
    if (result.expired_sessions + result.deleted_uploads + result.deleted_artifacts > 0) {
      deps.logger.info(result, 'cleanup pass');
    }
    return result;
  });
  return { name: 'cleanup worker', close: () => job.close() };
}
