import type { RunRecord } from '@svc/contracts';

/**
 * ms: how long a `run.finished` is remembered for a waiter that registers after it (RunWaiter). The
 * race it covers lasts from the orchestrator's startCrtRun answer to the waiter's registration,
 * milliseconds; a miss costs one poll interval, not correctness.
 */
export const RECENT_FINISHED_TTL_MS = 5_000;
/**
 * Runs remembered at most (oldest evicted first). Records in events are at most 64 KiB, so this
 * bounds the map near 128 MiB in the worst case; at 60 runs/s of ~10 KiB records it holds ~300
 * entries (~3 MiB).
 */
export const RECENT_FINISHED_MAX = 2_000;

/** What one `run.finished` said about a run. */
export interface FinishedNote {
  /** The owner, when the event named it. */
  readonly clientId: string | undefined;
  /** The final record, when the event carried one (small enough to publish) and named the owner. */
  readonly run: RunRecord | undefined;
}

interface Entry extends FinishedNote {
  /** Date.now() ms after which the entry is ignored and dropped. */
  readonly expiresAt: number;
}

export interface RecentFinishedOptions {
  /** ms an entry is kept (default RECENT_FINISHED_TTL_MS). */
  readonly ttlMs?: number;
  /** Entries kept at most (default RECENT_FINISHED_MAX). */
  readonly maxEntries?: number;
}

/**
 * Runs whose `run.finished` this gateway saw in the last `ttlMs`, by run id: a bounded map (count and
 * age) without timers. A Map iterates in insertion order, and every entry lives equally long and is
 * re-inserted when seen again, so the oldest entry is always first: eviction and expiry both only
 * look at the head.
 */
export class RecentFinishedRuns {
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly entries = new Map<string, Entry>();

  constructor(options: RecentFinishedOptions = {}) {
    this.ttlMs = options.ttlMs ?? RECENT_FINISHED_TTL_MS;
    this.maxEntries = options.maxEntries ?? RECENT_FINISHED_MAX;
    if (!(this.ttlMs > 0)) throw new RangeError('ttlMs must be positive');
    if (!(this.maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1');
  }

  remember(runId: string, note: FinishedNote): void {
    const now = Date.now();
    this.entries.delete(runId); // re-insert at the end: newest last
    this.entries.set(runId, { ...note, expiresAt: now + this.ttlMs });
    this.dropExpired(now);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  /** What the last event of `runId` said, if it is younger than `ttlMs`. */
  lookup(runId: string): FinishedNote | undefined {
    const now = Date.now();
    this.dropExpired(now);
    return this.entries.get(runId);
  }

  private dropExpired(now: number): void {
    for (const [runId, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(runId);
    }
  }
}
