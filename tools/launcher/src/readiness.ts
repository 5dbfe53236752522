// Waiting for the services to answer /readyz before the launcher says "ready".

// ms between two rounds of probes, and the most one probe may take.
const POLL_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 1_000;
// ms between two "still waiting" lines, so a slow start is explained rather than silent
// (LAUNCHER_SLOW_START_MS overrides it).
export const REPORT_EVERY_MS = 15_000;

export interface ReadinessTarget {
  name: string;
  /** e.g. `http://127.0.0.1:8081/readyz` */
  url: string;
}

async function isReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Resolves once every target has answered 200 (each is probed until it does), or when
 * `cancelled()` turns true. Every REPORT_EVERY_MS it reports which ones are still not ready.
 * Returns true when all became ready.
 */
export async function waitUntilReady(
  targets: readonly ReadinessTarget[],
  options: {
    cancelled: () => boolean;
    report: (pending: string[], waitedMs: number) => void;
    /** ms between two reports; default REPORT_EVERY_MS. */
    reportEveryMs?: number;
  },
): Promise<boolean> {
  const reportEveryMs = options.reportEveryMs ?? REPORT_EVERY_MS;
  const started = Date.now();
  let nextReport = started + reportEveryMs;
  let pending = [...targets];
  while (pending.length > 0) {
    if (options.cancelled()) return false;
    const answers = await Promise.all(pending.map((target) => isReady(target.url)));
    pending = pending.filter((_target, index) => !answers[index]);
    if (pending.length === 0) break;
    if (Date.now() >= nextReport) {
      options.report(
        pending.map((target) => target.name),
        Date.now() - started,
      );
      nextReport += reportEveryMs;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  return !options.cancelled();
}
