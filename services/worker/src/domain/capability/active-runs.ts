import { RunCancelledError } from '@svc/capabilities';

/**
 * The runs this worker process is executing right now, each with the AbortController that a
 * cancellation request aborts (design "Worker": a cancel can only reach the process that holds the
 * job, NOTES "BullMQ and Redis", so every worker checks each `run.cancel-requested` event here).
 */

/** One registered run: abort-on-cancel signal, and `release()` once the handler is done with it. */
export interface ActiveRun {
  /** Aborted (reason RunCancelledError) when a cancellation of this run is requested. */
  readonly cancelSignal: AbortSignal;
  /** Whether a cancellation was requested while the run was registered. */
  readonly cancelled: boolean;
  /** Forgets the run (idempotent). */
  release(): void;
}

export class ActiveRuns {
  /**
   * run id → controllers. Normally one per run; two when a job is picked up again on this same
   * process while its stalled predecessor is still winding down, and both must hear the cancel.
   */
  private readonly runs = new Map<string, Set<AbortController>>();

  register(runId: string): ActiveRun {
    const controller = new AbortController();
    let controllers = this.runs.get(runId);
    if (!controllers) {
      controllers = new Set();
      this.runs.set(runId, controllers);
    }
    controllers.add(controller);
    const release = () => {
      const current = this.runs.get(runId);
      if (!current) return;
      current.delete(controller);
      if (current.size === 0) this.runs.delete(runId);
    };
    return {
      cancelSignal: controller.signal,
      get cancelled() {
        return controller.signal.aborted;
      },
      release,
    };
  }

  /** Aborts every registration of `runId`; returns how many there were (0: not running here). */
  cancel(runId: string): number {
    const controllers = this.runs.get(runId);
    if (!controllers) return 0;
    for (const controller of controllers) controller.abort(new RunCancelledError(runId));
    return controllers.size;
  }

  /** The ids of the runs registered now (the heartbeat announces them as held). */
  ids(): string[] {
    return [...this.runs.keys()];
  }

  /** Runs registered now (metrics, tests). */
  get size(): number {
    return this.runs.size;
  }
}
