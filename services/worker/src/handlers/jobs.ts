import { type JobProcessor, type ProcessJobsOptions, processJobs, serviceClient } from '@svc/bus';
import {
  type AnyCapabilityHandlerFactory,
  CAPABILITIES,
  type CapabilityHandler,
  type CapabilityJobName,
  capabilityJobName,
  createRunStorage,
  type JobPayload,
  type RunnableCapability,
  runnableCapabilities,
  settingsOf,
} from '@svc/capabilities';
import type { ResolvedFile } from '@svc/contracts';
import type { Logger } from '@svc/log';
import type { ObjectStore } from '@svc/storage';
import { createCapabilityCache } from '../adapters/capability-cache';
import type { ActiveRuns } from '../domain/capability/active-runs';
import { echo } from '../domain/echo';
import { type SlotSettings, slotsFor } from '../domain/slots';
import type { WorkerBus } from '../worker-bus';
import { type AskPolicies, capabilityJobHandler, type RunObserver } from './capability-job';

/** A capability job's payload, whichever capability (the catalog validated it). */
type CapabilityPayload = JobPayload<CapabilityJobName>;

export interface JobConsumerOptions {
  /** How many runs of each capability this process runs at once (domain/slots.ts). */
  slots: SlotSettings;
  /** ms: how long closing waits for running jobs before dropping them (they are redelivered). */
  drainTimeoutMs: number;
  /** BullMQ lock and stalled-job settings of the capability queues (WORKER_LOCK_DURATION_MS, …). */
  stall: Pick<ProcessJobsOptions, 'lockDurationMs' | 'stalledIntervalMs' | 'maxStalledCount'>;
  /** WORKER_RUNTIMES and WORKER_CAPABILITIES: what this worker serves (servedCapabilities). */
  serves: Serves;
  /**
   * The worker's parsed env: each capability's handler gets the values of its own env fields
   * (`<slug>/env.ts`, merged into the worker's env schema).
   */
  env: Readonly<Record<string, unknown>>;
  /** The runs of this process, for cancellation requests. */
  activeRuns: ActiveRuns;
  /** Object storage: the file capabilities' inputs (uploads) and every run's artifacts. */
  store: ObjectStore;
  /** Per-attempt metrics (outcome, duration); optional. */
  observe?: RunObserver;
  /** How long claims and reports are asked again until answered; default DEFAULT_ASK_POLICIES (tests shorten it). */
  ask?: AskPolicies;
  logger: Logger;
}

/**
 * ms: how long one claim or report call waits for the orchestrator's answer. Above its own calls'
 * bounds (a completed report registers artifacts with the upload service first); a call that times
 * out is simply asked again.
 */
const ORCHESTRATOR_CALL_TIMEOUT_MS = 10_000;

/** `system.echo` jobs one process runs at once unless WORKER_CONCURRENCY says otherwise. */
const ECHO_CONCURRENCY = 4;

/** What `startJobConsumers` started: the queue consumers, and the capability handlers they run. */
export interface JobConsumers {
  /** `system.echo` and one consumer per capability queue served. */
  consumers: JobProcessor[];
  /**
   * Releases what the handlers hold (a browser a handler started): after the consumers closed (no run
   * is left to use it) and before the bus.
   */
  closeHandlers(): Promise<void>;
}

/**
 * Starts a consumer for every job queue this worker handles: `system.echo` always, and
 * `capability.<slug>` for every runnable capability of the catalog whose runtime this worker serves
 * (each capability declares its runtime: `node` or `browser`). A capability's handler module is loaded only here, so a worker loads the libraries of
 * the runtimes it serves and nothing else does (registry, orchestrator, gateway).
 */
export async function startJobConsumers(bus: WorkerBus, options: JobConsumerOptions): Promise<JobConsumers> {
  const echoOptions = {
    concurrency: options.slots.everyQueue ?? ECHO_CONCURRENCY,
    closeTimeoutMs: options.drainTimeoutMs,
  };
  const deps = {
    attempts: serviceClient(bus, 'orchestrator', { timeoutMs: ORCHESTRATOR_CALL_TIMEOUT_MS }),
    logger: options.logger,
    ...(options.ask === undefined ? {} : { ask: options.ask }),
    activeRuns: options.activeRuns,
    ...(options.observe === undefined ? {} : { observe: options.observe }),
  };
  const served = servedCapabilities(options.serves);
  // Every handler is built before the first consumer starts: a handler module that fails to load
  // stops start-up instead of leaving part of the queues unconsumed.
  const handlers = await Promise.all(served.map((capability) => loadHandler(capability, bus, options)));

  const consumers = [processJobs(bus, 'system.echo', (payload) => echo(payload), echoOptions)];
  for (const [index, capability] of served.entries()) {
    const job = capabilityJobName(capability.slug);
    const handler = handlers[index];
    if (job === undefined || handler === undefined) {
      throw new Error(`capability ${capability.slug} has no job in the catalog`);
    }
    const run = capabilityJobHandler(job, deps, (payload: CapabilityPayload, signal, logger) => {
      const { input, files } = runInput(payload);
      return handler.run({
        runId: payload.run_id,
        input,
        files,
        signal,
        logger,
        storage: createRunStorage(options.store, payload.run_id),
      });
    });
    consumers.push(
      processJobs(bus, job, run, {
        ...options.stall,
        concurrency: slotsFor(capability.slug, capability.workload, options.slots),
        closeTimeoutMs: options.drainTimeoutMs,
      }),
    );
  }
  return {
    consumers,
    closeHandlers: async () => {
      await Promise.all(handlers.map((handler) => handler.close?.()));
    },
  };
}

/** What a worker serves: its runtimes, and of their capabilities the ones named (none named: all). */
export interface Serves {
  readonly runtimes: readonly string[];
  readonly capabilities: readonly string[];
}

/** The runnable capabilities this worker serves (each declares its runtime). */
export function servedCapabilities({ runtimes, capabilities }: Serves): RunnableCapability[] {
  return runnableCapabilities(CAPABILITIES).filter(
    (capability) =>
      runtimes.includes(capability.execution.runtime) &&
      (capabilities.length === 0 || capabilities.includes(capability.slug)),
  );
}

/** Runs of each served capability this process runs at once, by slug (announced with the heartbeat). */
export function servedSlots(serves: Serves, slots: SlotSettings): Record<string, number> {
  return Object.fromEntries(
    servedCapabilities(serves).map((capability) => [
      capability.slug,
      slotsFor(capability.slug, capability.workload, slots),
    ]),
  );
}

/** Loads a capability's handler module and builds its handler with its settings and ports. */
async function loadHandler(
  capability: RunnableCapability,
  bus: WorkerBus,
  options: JobConsumerOptions,
): Promise<CapabilityHandler<unknown>> {
  const factory: AnyCapabilityHandlerFactory = (await capability.handler()).default;
  return factory.create({
    settings: settingsOf(capability, options.env),
    ports: { cache: createCapabilityCache(bus, capability.slug) },
    logger: options.logger,
  });
}

/**
 * The handler's input and files out of a capability job payload: `{ run_id, input, files? }`, or
 * for a capability with its own payload (crt: `{ run_id, apex, include_first_seen, limit }`) the
 * payload without `run_id` (define.ts HandlerInput).
 */
function runInput(payload: CapabilityPayload): { input: unknown; files: readonly ResolvedFile[] } {
  if ('files' in payload) return { input: payload.input, files: payload.files };
  if ('input' in payload) return { input: payload.input, files: [] };
  const { run_id: _runId, ...input } = payload;
  return { input, files: [] };
}
