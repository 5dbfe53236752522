/** What one hand-over pass may do, given what Redis's run_id said (RedisRestartWatch.begin). */
export interface RestartView {
  /** Redis's run_id at the start of the pass. */
  runId: string;
  /**
   * Redis (re)started less than the grace ago: workers may not have re-announced the runs they
   * hold yet, so a claimed run (running, retrying) must not be handed over even if nothing in
   * Redis says it is held.
   */
  inGrace: boolean;
  /** The pass must look at every live run, not one page. */
  full: boolean;
}

/**
 * Tracks Redis restarts for the hand-over check (issue 15). Redis draws a new run_id at every start;
 * a new one means every job and every hold workers announced (heldRunsKey) may be gone. Queued runs
 * can be handed over at once, but a claimed one may still be computed, or its result held, by a live
 * worker whose next heartbeats announce it again: so for `graceMs` (a heartbeat TTL) after a run_id
 * is first seen, claimed runs wait. The first run_id a process sees counts as new: Redis may have
 * restarted while the process was down. A full pass is due once when the run_id changes (queued
 * runs at once) and once more when the grace ends (claimed runs no worker announced).
 */
export class RedisRestartWatch {
  private seenRunId: string | undefined;
  private seenAtMs = 0;
  /** run_id whose full pass ran inside the grace. */
  private walkedInGrace: string | undefined;
  /** run_id whose full pass ran after the grace: nothing more to do for that start of Redis. */
  private walkedAfterGrace: string | undefined;

  constructor(private readonly graceMs: number) {}

  /** A pass starts: Redis answered `runId` at `nowMs` (ms since the epoch). */
  begin(runId: string, nowMs: number): RestartView {
    if (runId !== this.seenRunId) {
      this.seenRunId = runId;
      this.seenAtMs = nowMs;
    }
    const inGrace = nowMs - this.seenAtMs < this.graceMs;
    const walked = inGrace ? this.walkedInGrace : this.walkedAfterGrace;
    return { runId, inGrace, full: walked !== runId };
  }

  /**
   * The full pass begun with `view` looked at every live run. Call it only then: a pass that failed
   * half-way is repeated in full.
   */
  walkedAll(view: RestartView): void {
    this.walkedInGrace = view.runId;
    if (!view.inGrace) this.walkedAfterGrace = view.runId;
  }

  /** When the grace of the current run_id ends (ms since the epoch); for logs. */
  graceEndsAtMs(): number {
    return this.seenAtMs + this.graceMs;
  }
}
