import type { Logger } from '@svc/log';
import type { ReadinessCheckFn } from './checks';
import { runReadinessChecks } from './readiness';

/**
 * Where an instance reports its readiness for the rest of the platform to see (in this codebase:
 * `servicePresence` of @svc/bus, a Redis sorted set per service that the gateway's /readyz reads).
 */
export interface ReadinessPresence {
  /** ms between two reports; each report outlives the next one (a TTL of a few intervals). */
  readonly intervalMs: number;
  report(ready: boolean): Promise<void>;
  /** Takes this instance out at once (clean shutdown). */
  withdraw(): Promise<void>;
}

/** ms: the longest wait between two beats while the instance is not ready or its reports fail. */
export const RECOVERY_BEAT_MS = 1_000;

export interface ReadinessHeartbeatOptions {
  service: string;
  /** The instance's own /readyz checks: it reports ready only while they all pass. */
  checks: Record<string, ReadinessCheckFn>;
  /** ms per check */
  checkTimeoutMs: number;
  presence: ReadinessPresence;
  logger: Logger;
}

export interface ReadinessHeartbeat {
  /** Stops reporting and withdraws the instance (errors are logged, never thrown). */
  stop(): Promise<void>;
}

/**
 * Runs the checks and reports the result now and then every `presence.intervalMs`, so a service
 * that is down, crash-looping or failing a check stops counting as ready within one TTL, and one
 * that recovers counts again at its next report (within RECOVERY_BEAT_MS: while not ready or not
 * reporting, it beats faster). A report that fails (Redis down) is logged once
 * per outage and tried again on the next tick; it never stops the service. Resolves after the
 * first report, or after `firstReportWaitMs` if that one hangs (start-up is not held up by Redis).
 */
export async function startReadinessHeartbeat(
  options: ReadinessHeartbeatOptions,
  firstReportWaitMs = 2 * options.checkTimeoutMs,
): Promise<ReadinessHeartbeat> {
  const { service, checks, checkTimeoutMs, presence, logger } = options;
  /** The last report's result; undefined before the first. */
  let ready: boolean | undefined;
  let reportFailing = false;
  let stopped = false;

  const beat = async (): Promise<void> => {
    const report = await runReadinessChecks(service, checks, checkTimeoutMs);
    // A beat that was running when stop() withdrew the instance must not announce it again.
    if (stopped) return;
    // Transitions only, so a service that stays unready is not logged every interval; and not
    // being ready yet at start-up (a first connection still being made) is no warning.
    if (report.ok && ready !== true) logger.info('ready: reported to the platform');
    if (!report.ok && ready === true) {
      logger.warn({ checks: report.checks }, 'not ready: withdrawn from the platform until its checks pass');
    }
    ready = report.ok;
    try {
      await presence.report(report.ok);
      if (reportFailing) logger.info('readiness report restored');
      reportFailing = false;
    } catch (err) {
      if (!reportFailing) logger.warn({ err: errorMessage(err) }, 'readiness report failed; retrying');
      reportFailing = true;
    }
  };

  let timer: NodeJS.Timeout | undefined;
  /**
   * ms until the next beat: the presence's interval while all is well; at most
   * RECOVERY_BEAT_MS while not ready or while reports fail, so an instance whose database or Redis
   * came back counts as ready again within about a second, not after a whole interval (issue 15).
   */
  const nextDelay = (): number =>
    reportFailing || ready === false ? Math.min(presence.intervalMs, RECOVERY_BEAT_MS) : presence.intervalMs;
  // One beat at a time (a chain of timeouts, not an interval): a beat still waiting on a hung
  // Redis is never doubled up.
  const run = (): Promise<void> =>
    beat().finally(() => {
      if (stopped) return;
      timer = setTimeout(() => {
        inFlight = run();
      }, nextDelay());
      // Reporting alone must not keep the process alive.
      timer.unref();
    });
  let inFlight = run();
  await waitAtMost(inFlight, firstReportWaitMs);

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        await waitAtMost(inFlight, firstReportWaitMs);
        try {
          await presence.withdraw();
        } catch (err) {
          // Redis unreachable: the report lapses on its own within its TTL.
          logger.warn({ err: errorMessage(err) }, 'readiness report not withdrawn');
        }
      })();
      return stopping;
    },
  };
}

/** Waits for `promise` at most `ms` (it goes on running after that). */
async function waitAtMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
