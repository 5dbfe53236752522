import { processJobs } from '@svc/bus';
import type { CapabilityOutcome } from '@svc/capabilities';
import {
  type CrtInput,
  type CrtResult,
  capabilityWorkersKey,
  INTERNAL_RUN_ERROR,
  runtimeWorkersKey,
} from '@svc/contracts';
import type { InProcessPlatform } from '@svc/testkit';
import { ActiveRuns } from '@svc/worker/src/domain/capability/active-runs';
import { capabilityJobHandler } from '@svc/worker/src/handlers/capability-job';

/**
 * A worker of the `node` runtime for crt runs, in the test's process: the real worker's capability
 * job (claimAttempt, then reportRun to the real orchestrator, over the in-memory transport) around a
 * runner that answers what the test asks for instead of calling the CT providers (the providers are
 * the crt-*.int.test.ts suites' business). Runs of any other capability are not taken: they stay
 * queued, as on a platform with no worker for them.
 */

/** How a crt run taken from now on ends; `stay-queued` leaves it queued until `finish` names an end. */
export type CrtOutcome = 'complete' | 'fail-provider' | 'fail-internal' | 'stay-queued';

type CrtEnd = Exclude<CrtOutcome, 'stay-queued'>;

export const PROVIDER_FAILURE =
  'crt providers unavailable: crt.sh: HTTP 502 after 3 attempts; certspotter: timed out after 15000 ms';

/** What the providers "found" for an apex: three hostnames, first seen at one fixed time. */
export function crtResultFor(input: CrtInput): CrtResult {
  const hostnames = [input.apex, `mail.${input.apex}`, `www.${input.apex}`].slice(0, input.limit);
  return {
    status: 'completed',
    summary: `Found 3 distinct hostnames for ${input.apex} in certificate-transparency logs (crt.sh); returning ${hostnames.length} (limit ${input.limit}).`,
    apex: input.apex,
    count: hostnames.length,
    limit: input.limit,
    include_first_seen: input.include_first_seen,
    observations: hostnames.map((hostname) =>
      input.include_first_seen ? { hostname, first_seen: '2024-03-05T12:34:56.789Z' } : { hostname },
    ),
    provider: 'crt.sh',
    live_hosts_verified: false,
    disclosure: 'Certificate-transparency observations do not prove that a host is live.',
  };
}

function outcomeOf(end: CrtEnd, input: CrtInput): CapabilityOutcome {
  const metrics = { provider: 'crt.sh', provider_ms: 1, cache: 'off' } as const;
  if (end === 'complete') return { kind: 'completed', result: crtResultFor(input), metrics };
  if (end === 'fail-provider') {
    return { kind: 'failed', error: { code: 'provider_unavailable', message: PROVIDER_FAILURE }, metrics };
  }
  return { kind: 'failed', error: INTERNAL_RUN_ERROR, metrics };
}

export interface CrtWorker {
  /** How crt runs taken from now on end (default `complete`). */
  outcome: CrtOutcome;
  /**
   * Ends a run left queued by `stay-queued` (`runId`: the internal id the job carries, which is the
   * run id its owner sees unless the owner chose one): it is claimed (running) and ends as told.
   * Told before its job reached the worker, the run ends so when it does.
   */
  finish(runId: string, end: CrtEnd): void;
}

/** Starts the crt consumer on the platform's bus and announces a `node` worker (closed with the platform). */
export async function startCrtWorker(platform: InProcessPlatform): Promise<CrtWorker> {
  const parked = new Map<string, { release: (end: CrtEnd) => void; drop: (err: Error) => void }>();
  /** Ends told before the run's job arrived. */
  const decided = new Map<string, CrtEnd>();
  const worker: CrtWorker = {
    outcome: 'complete',
    finish(runId, end) {
      const waiting = parked.get(runId);
      if (waiting === undefined) {
        decided.set(runId, end);
        return;
      }
      parked.delete(runId);
      waiting.release(end);
    },
  };
  const park = (runId: string) =>
    new Promise<CrtEnd>((release, drop) => {
      const told = decided.get(runId);
      if (told !== undefined) {
        decided.delete(runId);
        release(told);
      } else parked.set(runId, { release, drop });
    });
  const activeRuns = new ActiveRuns();
  const consumer = processJobs(
    platform.bus,
    'capability.crt',
    async (payload, context) => {
      const chosen = worker.outcome;
      const end = chosen === 'stay-queued' ? await park(payload.run_id) : chosen;
      const handle = capabilityJobHandler(
        'capability.crt',
        { attempts: platform.client('orchestrator'), logger: platform.logger, activeRuns },
        async (job: CrtInput & { run_id: string }) => outcomeOf(end, job),
      );
      return handle(payload, context);
    },
    // Runs left queued hold a slot each until finished.
    { concurrency: 64, closeTimeoutMs: 1_000 },
  );
  platform.own(consumer);
  // Closed first: runs still parked give up (their jobs fail), so the consumer closes at once.
  platform.own({
    close: () => {
      for (const waiting of parked.values()) waiting.drop(new Error('the test platform is closing'));
      parked.clear();
    },
  });
  await consumer.waitUntilReady();
  // The worker's heartbeat as the orchestrator reads it: a `node` worker serving crt is up (no
  // waiting_for_runtime).
  const lapses = Date.now() + 3_600_000;
  await platform.bus.redis.zadd(runtimeWorkersKey(platform.bus.prefix, 'node'), lapses, 'test');
  await platform.bus.redis.zadd(capabilityWorkersKey(platform.bus.prefix, 'crt'), lapses, 'test');
  return worker;
}
