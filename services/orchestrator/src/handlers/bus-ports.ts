import {
  type Bus,
  capabilityJobName,
  enqueueJob,
  publishEvent,
  type RpcCatalog,
  type RpcClient,
  RUN_CANCEL_KEY_TTL_MS,
  removeWaitingJob,
  runCancelKey,
  runtimeWorkersKey,
} from '@svc/bus';
import { ServiceUnavailableError } from '@svc/errors';
import type { Logger } from '@svc/log';
import { type EnqueueCapabilityJob, runJobId } from '../domain/dispatch';
import type { WorkerAvailability } from '../domain/get-run';
import type { ResolveFiles } from '../domain/input-files';
import type { RegisterArtifacts } from '../domain/reports';
import type { RunFinishedEvent } from '../domain/run-finished';
import { type EnqueueSettle, settleJobId } from '../domain/settlement';

/** The domain's queue port on the bus: `capability.<slug>` jobs, one per run (job id `run-<id>`). */
export function capabilityJobEnqueuer(bus: Bus): EnqueueCapabilityJob {
  return async (job) => {
    await enqueueJob(bus, job.name, job.payload, { jobId: runJobId(job.payload.run_id) });
  };
}

/** The domain's file port on `rpc.uploads`: the uploads a quote or run input names (resolveFiles). */
export function fileResolver(uploads: RpcClient<RpcCatalog['uploads']>): ResolveFiles {
  return async (request) => (await uploads.call('resolveFiles', request)).files;
}

/** The domain's artifact port on `rpc.uploads`: a completed run's artifacts (registerArtifacts). */
export function artifactRegistrar(uploads: RpcClient<RpcCatalog['uploads']>): RegisterArtifacts {
  return async (request) => {
    await uploads.call('registerArtifacts', request);
  };
}

/** `wallet.settle` jobs, one per run (job id `settle-<run_id>`): the wallet applies each once. */
export function settleEnqueuer(bus: Bus): EnqueueSettle {
  return async (job) => {
    await enqueueJob(bus, 'wallet.settle', job, { jobId: settleJobId(job.run_id) });
  };
}

/**
 * Announces a final run to whoever waits on it (the gateway's synchronous crt answer). Reports pass
 * the whole event (owner and record, runFinishedEvent); the dispatcher's sweeps only id and state.
 */
export function runFinishedPublisher(bus: Bus): (event: RunFinishedEvent) => Promise<void> {
  return async (event) => {
    await publishEvent(bus, 'run.finished', event);
  };
}

/** `run.cancel-requested`: every worker checks it against the jobs it runs (spec §4.10: cooperative). */
export function cancelRequestedPublisher(bus: Bus): (runId: string) => Promise<void> {
  return async (runId) => {
    await publishEvent(bus, 'run.cancel-requested', { run_id: runId });
  };
}

/** SET the run's cancel marker for RUN_CANCEL_KEY_TTL_MS: a worker about to start its job skips it. */
export function cancelMarkerSetter(bus: Bus): (runId: string) => Promise<void> {
  return async (runId) => {
    const redis = await readyRedis(bus);
    try {
      await redis.set(runCancelKey(bus.prefix, runId), '1', 'PX', RUN_CANCEL_KEY_TTL_MS);
    } catch {
      throw new ServiceUnavailableError('message bus is unavailable');
    }
  };
}

/** Removes a cancelled run's job while it still waits (best effort: an active job cannot be removed). */
export function queuedJobRemover(bus: Bus): (slug: string, runId: string) => Promise<boolean> {
  return async (slug, runId) => {
    const name = capabilityJobName(slug);
    return name === undefined ? false : removeWaitingJob(bus, name, runJobId(runId));
  };
}

/**
 * Whether a worker of `runtime` is up: `ZCOUNT runtimeWorkersKey <now> +inf` > 0 (workers score
 * their id with the time their heartbeat lapses). Redis unanswerable → false, logged: the answer
 * only colours a message, it must not fail the request.
 */
export function workerAvailability(bus: Bus, logger: Logger): WorkerAvailability {
  return async (runtime) => {
    try {
      const redis = await readyRedis(bus);
      return (await redis.zcount(runtimeWorkersKey(bus.prefix, runtime), Date.now(), '+inf')) > 0;
    } catch (err) {
      logger.warn({ runtime, err }, 'worker availability unknown (Redis); reporting none up');
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
async function readyRedis(bus: Bus): Promise<Bus['redis']> {
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
