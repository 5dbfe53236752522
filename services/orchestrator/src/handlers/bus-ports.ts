import { type Bus, enqueueJob, publishEvent, type RpcClient, removeWaitingJob } from '@svc/bus';
import { capabilityJobName, type MessageCatalog } from '@svc/capabilities';
import type { RpcCatalog } from '@svc/contracts';
import { type EnqueueCapabilityJob, runJobId } from '../domain/dispatch';
import type { ResolveFiles } from '../domain/input-files';
import type { RegisterArtifacts } from '../domain/reports';
import type { RunFinishedEvent } from '../domain/run-finished';
import { type EnqueueSettle, settleJobId } from '../domain/settlement';

/** The domain's queue port on the bus: `capability.<slug>` jobs, one per run (job id `run-<id>`). */
export function capabilityJobEnqueuer(bus: Bus<MessageCatalog>): EnqueueCapabilityJob {
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
export function settleEnqueuer(bus: Bus<MessageCatalog>): EnqueueSettle {
  return async (job) => {
    await enqueueJob(bus, 'wallet.settle', job, { jobId: settleJobId(job.run_id) });
  };
}

/**
 * Announces a final run to whoever waits on it (the gateway's synchronous crt answer). Reports pass
 * the whole event (owner and record, runFinishedEvent); the dispatcher's sweeps only id and state.
 */
export function runFinishedPublisher(bus: Bus<MessageCatalog>): (event: RunFinishedEvent) => Promise<void> {
  return async (event) => {
    await publishEvent(bus, 'run.finished', event);
  };
}

/** `run.cancel-requested`: every worker checks it against the jobs it runs (spec §4.10: cooperative). */
export function cancelRequestedPublisher(bus: Bus<MessageCatalog>): (runId: string) => Promise<void> {
  return async (runId) => {
    await publishEvent(bus, 'run.cancel-requested', { run_id: runId });
  };
}

/** Removes a cancelled run's job while it still waits (best effort: an active job cannot be removed). */
export function queuedJobRemover(
  bus: Bus<MessageCatalog>,
): (slug: string, runId: string) => Promise<boolean> {
  return async (slug, runId) => {
    const name = capabilityJobName(slug);
    return name === undefined ? false : removeWaitingJob(bus, name, runJobId(runId));
  };
}
