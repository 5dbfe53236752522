import { type Bus, publishEvent, removeWaitingJob, type ServiceClient } from '@svc/bus';
import { capabilityJobName, type MessageCatalog } from '@svc/capabilities';
import type { PlatformCatalog } from '@svc/contracts';
import type { ResolveFiles } from '../domain/input-files';
import type { RegisterArtifacts } from '../domain/reports';
import type { RunFinishedEvent } from '../domain/run-finished';
import type { SettleRun } from '../domain/settlement';

/** The domain's file port on `rpc.uploads`: the uploads a quote or run input names (resolveFiles). */
export function fileResolver(
  uploads: Pick<ServiceClient<PlatformCatalog, 'uploads'>, 'resolveFiles'>,
): ResolveFiles {
  return async (request) => (await uploads.resolveFiles(request)).files;
}

/** The domain's artifact port on `rpc.uploads`: a completed run's artifacts (registerArtifacts). */
export function artifactRegistrar(
  uploads: Pick<ServiceClient<PlatformCatalog, 'uploads'>, 'registerArtifacts'>,
): RegisterArtifacts {
  return async (request) => {
    await uploads.registerArtifacts(request);
  };
}

/** The domain's settlement port on `rpc.wallet` (`settle`: idempotent, applied once per run). */
export function walletSettler(wallet: Pick<ServiceClient<PlatformCatalog, 'wallet'>, 'settle'>): SettleRun {
  return wallet.settle;
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
): (slug: string, jobId: string) => Promise<boolean> {
  return async (slug, jobId) => {
    const name = capabilityJobName(slug);
    return name === undefined ? false : removeWaitingJob(bus, name, jobId);
  };
}
