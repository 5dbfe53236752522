import { isTerminalRunState, type RunRecord, type RunState } from '@svc/contracts';
import { type RecentFinishedOptions, RecentFinishedRuns } from './run-waiter-recent';

/**
 * Waits for runs to reach a terminal state, so `POST /api/capabilities/crt/run` can answer with the
 * result (design "Flow" step 5). Two sources, because Redis pub/sub is lossy (eventCatalog):
 * - the orchestrator's `run.finished` event (main.ts feeds it to notify()): the fast path. When it
 *   carries the stored record and its owner, the owner's waiters settle with it, no getRun; else
 *   they reload the run with getRun;
 * - a `getRun` poll every `pollIntervalMs`, for a lost event.
 * Every event is also remembered for a while (RecentFinishedRuns), which closes the race with an event
 * that arrives before the waiter exists (see wait()).
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
  /** Bounds of the map of recently finished runs (defaults: 5 s, 2,000 runs; run-waiter-recent.ts). */
  readonly recentFinished?: RecentFinishedOptions;
}

/** A `run.finished` event as notify() reads it (the bus's EventPayload<'run.finished'> fits). */
export interface RunFinishedNotice {
  readonly run_id: string;
  readonly status?: RunState;
  /** The owner of the run; a record is only handed to this client's waiters. */
  readonly client_id?: string | undefined;
  /** The stored record; absent from older publishers and when too large to publish. */
  readonly run?: RunRecord | undefined;
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
  private readonly recent: RecentFinishedRuns;
  private waiterCount = 0;
  private closed = false;

  constructor(options: RunWaiterOptions) {
    if (!(options.pollIntervalMs > 0)) throw new RangeError('pollIntervalMs must be positive');
    this.getRun = options.getRun;
    this.pollIntervalMs = options.pollIntervalMs;
    this.maxWaiters = options.maxWaiters ?? DEFAULT_MAX_WAITERS;
    this.onPollError = options.onPollError;
    this.recent = new RecentFinishedRuns(options.recentFinished);
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
      options.signal?.aborted === true
    ) {
      return Promise.resolve(run);
    }
    // The race with the event: the run may have finished, and its run.finished arrived, between the
    // orchestrator's answer and this call, when no watch existed yet. notify() records every event
    // in `recent` whether or not anybody waits, and this lookup and the registration below happen
    // in one synchronous step, so each event is seen either here or by the watch (nothing in
    // between). A lost event is covered by the poll.
    const note =
      this.recent.lookup(recentKey(clientId, run.run_id)) ??
      this.recent.lookup(recentKey(undefined, run.run_id));
    const known = note?.clientId === clientId ? note.run : undefined;
    if (known !== undefined) return Promise.resolve(known);
    if (this.waiterCount >= this.maxWaiters) return Promise.resolve(run);
    const fresh = !this.watches.get(run.run_id)?.has(clientId);
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
      if (!fresh) return; // the shared watch polls already
      // An event without a usable record went by before we registered: reload now. Otherwise the
      // first poll comes after one interval.
      if (note !== undefined && (note.clientId === undefined || note.clientId === clientId))
        this.check(watch);
      else this.schedulePoll(watch);
    });
  }

  /**
   * The `run.finished` handler. An event with the final record and its owner settles that client's
   * watch with it (no getRun); any other watch of the run reloads it now. Every event is remembered
   * for waiters that register later (wait()).
   */
  notify(event: RunFinishedNotice): void {
    const run =
      event.client_id !== undefined &&
      event.run !== undefined &&
      event.run.run_id === event.run_id &&
      isTerminalRunState(event.run.status)
        ? event.run
        : undefined;
    this.recent.remember(recentKey(event.client_id, event.run_id), { clientId: event.client_id, run });
    const byClient = this.watches.get(event.run_id);
    if (byClient === undefined) return;
    for (const watch of [...byClient.values()]) {
      if (run !== undefined && watch.clientId === event.client_id) this.settleAll(watch, run);
      else if (run === undefined) this.check(watch);
      // A record of another client: not for this watch (its getRun would answer 404); it polls on.
    }
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
        this.settleAll(watch, watch.last);
      } else if (watch.recheck) {
        watch.recheck = false;
        this.check(watch);
      } else {
        this.schedulePoll(watch);
      }
    });
  }

  private schedulePoll(watch: Watch): void {
    clearTimeout(watch.pollTimer);
    watch.pollTimer = setTimeout(() => this.check(watch), this.pollIntervalMs);
  }

  /** Settles every waiter of the watch with `run` (the last one's settle unwatches it). */
  private settleAll(watch: Watch, run: RunRecord): void {
    watch.last = run;
    for (const waiter of [...watch.waiters]) waiter.settle(run);
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

/**
 * The key of a remembered event: run ids are unique per client only (docs/decisions.md C16), so two
 * clients' runs may share one; an event that names no owner is kept under the run id alone.
 */
function recentKey(clientId: string | undefined, runId: string): string {
  return clientId === undefined ? runId : `${clientId}/${runId}`;
}
