import { isTerminalRunState, type RunRecord } from '@svc/contracts';

/**
 * Waits for runs to reach a terminal state, so `POST /api/capabilities/crt/run` can answer with the
 * result (design "Flow" step 5). Two sources, because Redis pub/sub is lossy (eventCatalog):
 * - the orchestrator's `run.finished` event (main.ts feeds it to notify()): the fast path;
 * - a `getRun` poll every `pollIntervalMs`, plus one check right after registering, which closes the
 *   race with an event published before the waiter existed.
 * At the deadline the wait gives up and returns the last record it saw (the route answers 202).
 *
 * Waiters of the same (client, run) share one watch: one poll per interval however many requests
 * wait (concurrent replays of one Idempotency-Key). Polls never overlap: the next one is scheduled
 * when the previous answer is in. Every timer is cleared when its waiter settles, and the number of
 * waiters is capped (`maxWaiters`): past the cap a wait returns at once and the client polls.
 */

/** Loads a run as its owner sees it (the orchestrator's `getRun` RPC). */
export type RunLoader = (clientId: string, runId: string) => Promise<RunRecord>;

export interface RunWaiterOptions {
  readonly getRun: RunLoader;
  /** ms between two polls of one watched run (RUN_POLL_INTERVAL_MS, default 1,000). */
  readonly pollIntervalMs: number;
  /** Waiters held at once, all runs together; default 10,000 (each holds one open request). */
  readonly maxWaiters?: number;
  /** Told about failed polls (they are retried on the next interval). */
  readonly onPollError?: (error: unknown, runId: string) => void;
}

export interface WaitOptions {
  /** ms to wait at most (CRT_RUN_WAIT_MS for the crt run). */
  readonly timeoutMs: number;
  /** Stops waiting early, e.g. when the client closed the connection. */
  readonly signal?: AbortSignal;
}

/** What the routes need from the waiter (an interface, so tests may substitute it). */
export interface RunWaiting {
  /**
   * Resolves with `run` once it is terminal, or with the last record seen when the timeout passes,
   * the signal aborts or the waiter closes. Never rejects: a failed poll keeps the last record.
   */
  wait(clientId: string, run: RunRecord, options: WaitOptions): Promise<RunRecord>;
}

const DEFAULT_MAX_WAITERS = 10_000;

interface Waiter {
  readonly settle: (run: RunRecord) => void;
}

/** One (client, run) being watched, with the waiters that share its polls. */
interface Watch {
  readonly clientId: string;
  readonly runId: string;
  readonly waiters: Set<Waiter>;
  last: RunRecord;
  pollTimer: NodeJS.Timeout | undefined;
  checking: boolean;
  /** A check was asked for while one was running (an event arrived): run another right after. */
  recheck: boolean;
  /** Removed from the map: late poll answers are ignored. */
  done: boolean;
}

export class RunWaiter implements RunWaiting {
  private readonly getRun: RunLoader;
  private readonly pollIntervalMs: number;
  private readonly maxWaiters: number;
  private readonly onPollError: ((error: unknown, runId: string) => void) | undefined;
  /** run_id → client_id → watch. */
  private readonly watches = new Map<string, Map<string, Watch>>();
  private waiterCount = 0;
  private closed = false;

  constructor(options: RunWaiterOptions) {
    if (!(options.pollIntervalMs > 0)) throw new RangeError('pollIntervalMs must be positive');
    this.getRun = options.getRun;
    this.pollIntervalMs = options.pollIntervalMs;
    this.maxWaiters = options.maxWaiters ?? DEFAULT_MAX_WAITERS;
    this.onPollError = options.onPollError;
  }

  /** Requests waiting right now (for tests and metrics). */
  get size(): number {
    return this.waiterCount;
  }

  wait(clientId: string, run: RunRecord, options: WaitOptions): Promise<RunRecord> {
    if (
      isTerminalRunState(run.status) ||
      this.closed ||
      options.timeoutMs <= 0 ||
      options.signal?.aborted === true ||
      this.waiterCount >= this.maxWaiters
    ) {
      return Promise.resolve(run);
    }
    const watch = this.watchFor(clientId, run);
    return new Promise<RunRecord>((resolve) => {
      let deadline: NodeJS.Timeout | undefined;
      const onAbort = (): void => waiter.settle(watch.last);
      const waiter: Waiter = {
        settle: (record) => {
          if (!watch.waiters.delete(waiter)) return; // settled already
          this.waiterCount -= 1;
          clearTimeout(deadline);
          options.signal?.removeEventListener('abort', onAbort);
          if (watch.waiters.size === 0) this.unwatch(watch);
          resolve(record);
        },
      };
      watch.waiters.add(waiter);
      this.waiterCount += 1;
      deadline = setTimeout(() => waiter.settle(watch.last), options.timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      // The check right after registering: the run may have finished (and its event gone by) between
      // the orchestrator's answer and now.
      this.check(watch);
    });
  }

  /** The `run.finished` handler: every watch of that run reloads it now. */
  notify(event: { readonly run_id: string }): void {
    const byClient = this.watches.get(event.run_id);
    if (byClient === undefined) return;
    for (const watch of byClient.values()) this.check(watch);
  }

  /** Releases every waiter with its last record (shutdown: the routes answer 202) and stops polling. */
  close(): void {
    this.closed = true;
    for (const byClient of [...this.watches.values()]) {
      for (const watch of [...byClient.values()]) {
        for (const waiter of [...watch.waiters]) waiter.settle(watch.last);
      }
    }
  }

  private watchFor(clientId: string, run: RunRecord): Watch {
    let byClient = this.watches.get(run.run_id);
    if (byClient === undefined) {
      byClient = new Map();
      this.watches.set(run.run_id, byClient);
    }
    let watch = byClient.get(clientId);
    if (watch === undefined) {
      watch = {
        clientId,
        runId: run.run_id,
        waiters: new Set(),
        last: run,
        pollTimer: undefined,
        checking: false,
        recheck: false,
        done: false,
      };
      byClient.set(clientId, watch);
    }
    return watch;
  }

  private unwatch(watch: Watch): void {
    watch.done = true;
    clearTimeout(watch.pollTimer);
    watch.pollTimer = undefined;
    const byClient = this.watches.get(watch.runId);
    if (byClient?.get(watch.clientId) !== watch) return;
    byClient.delete(watch.clientId);
    if (byClient.size === 0) this.watches.delete(watch.runId);
  }

  /** Loads the run now (or right after the load in progress) and settles the waiters if it ended. */
  private check(watch: Watch): void {
    if (watch.done) return;
    if (watch.checking) {
      watch.recheck = true;
      return;
    }
    watch.checking = true;
    clearTimeout(watch.pollTimer);
    watch.pollTimer = undefined;
    void this.load(watch).finally(() => {
      watch.checking = false;
      if (watch.done) return;
      if (isTerminalRunState(watch.last.status)) {
        for (const waiter of [...watch.waiters]) waiter.settle(watch.last);
      } else if (watch.recheck) {
        watch.recheck = false;
        this.check(watch);
      } else {
        watch.pollTimer = setTimeout(() => this.check(watch), this.pollIntervalMs);
      }
    });
  }

  private async load(watch: Watch): Promise<void> {
    try {
      const record = await this.getRun(watch.clientId, watch.runId);
      if (!watch.done) watch.last = record;
    } catch (error) {
      // Transient (the orchestrator restarting, a Redis blip): keep the last record, poll again.
      this.onPollError?.(error, watch.runId);
    }
  }
}
