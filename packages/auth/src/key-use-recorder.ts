import { DEFAULT_TOUCH_INTERVAL_MS } from './api-key-store';

// ms: how often noted uses are written. last_used_at is kept to the minute (the store's touch
// interval), so a few seconds of delay change nothing an operator reads, and one statement per
// flush replaces one per request.
const DEFAULT_FLUSH_INTERVAL_MS = 5_000;
// Ids per UPDATE: far above the keys one gateway sees in a flush interval; a bound on the statement.
const MAX_IDS_PER_FLUSH = 1_000;

export interface KeyUseRecorderOptions {
  /** Writes the uses (ApiKeyStore.recordUse): one statement for a batch of key row ids. */
  write: (ids: readonly string[]) => Promise<void>;
  /** A failed write: logged by the caller; those ids are noted again on their next use. */
  onError: (err: unknown, count: number) => void;
  /** ms between two flushes (default 5 000). */
  flushIntervalMs?: number;
  /** ms: a key written less than this ago is not noted again (default: the store's 60 000). */
  minIntervalMs?: number;
  /** Clock in ms, for tests. */
  now?: () => number;
}

/**
 * Records API key use (last_used_at) off the request path: `note` is a Map lookup on the request,
 * and a timer writes the noted keys in one throttled UPDATE. A request never waits on it and a
 * failed write never fails a request (decisions: item 5 of issue 15).
 */
export class KeyUseRecorder {
  private readonly pending = new Set<string>();
  /** Key row id → when this process last queued it for writing (ms). */
  private readonly written = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private readonly flushIntervalMs: number;
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: KeyUseRecorderOptions) {
    this.flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.minIntervalMs = options.minIntervalMs ?? DEFAULT_TOUCH_INTERVAL_MS;
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), this.flushIntervalMs);
    // A pending write is not a reason to keep the process alive; close() flushes on shutdown.
    this.timer.unref();
  }

  /** Notes one use of a key (its row id); `lastUsedAt` as read skips a key used recently anyway. */
  note(id: string, lastUsedAt: Date | null = null): void {
    if (this.closed) return;
    const now = this.now();
    const last = Math.max(this.written.get(id) ?? 0, lastUsedAt?.getTime() ?? 0);
    if (now - last < this.minIntervalMs) return;
    this.written.set(id, now);
    this.pending.add(id);
  }

  /** Writes what is pending (one UPDATE per MAX_IDS_PER_FLUSH ids); never rejects. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  /** Stops the timer and writes what is pending. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
  }

  private async writePending(): Promise<void> {
    this.forgetOld();
    while (this.pending.size > 0) {
      const ids = [...this.pending].slice(0, MAX_IDS_PER_FLUSH);
      for (const id of ids) this.pending.delete(id);
      try {
        await this.options.write(ids);
      } catch (err) {
        // Not retried here: the keys are noted again on their next use, and the database being
        // down already shows in every other answer.
        for (const id of ids) this.written.delete(id);
        this.options.onError(err, ids.length);
      }
    }
  }

  /** Drops throttle entries past the interval, so the map holds only recently used keys. */
  private forgetOld(): void {
    const cutoff = this.now() - this.minIntervalMs;
    for (const [id, at] of this.written) {
      if (at <= cutoff) this.written.delete(id);
    }
  }
}
