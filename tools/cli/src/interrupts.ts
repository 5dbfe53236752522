import { constants } from 'node:os';

/** The signals svc answers itself (main.ts); every other one keeps Node's default. */
export const HANDLED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type HandledSignal = (typeof HANDLED_SIGNALS)[number];

/** What to do with a signal: start the interrupt (abort the command), exit now, or carry on. */
export type InterruptAction =
  | { kind: 'abort'; note: string }
  | { kind: 'exit'; code: number }
  | { kind: 'ignore'; note: string };

/**
 * When svc stops on a signal (docs/decisions.md SC12). The first Ctrl-C (SIGINT) aborts the command:
 * a run being waited for is cancelled on the server before svc exits 130; a second Ctrl-C exits at
 * once. SIGTERM and SIGHUP end svc at once, except while a run is being waited for ({@link guard}):
 * then they abort like a first Ctrl-C, and once an interrupt is under way they are ignored until the
 * cancel request has its answer. That is what `pnpm svc run … --wait` needs: a terminal's Ctrl-C
 * reaches pnpm and svc together, and pnpm, on its way out, sends svc SIGTERM (execa's cleanup)
 * right after; obeying it would lose the cancel and the run would be charged.
 */
export class Interrupts {
  readonly controller = new AbortController();
  private first: HandledSignal | undefined;
  private sigints = 0;
  private guarded = 0;

  /** The exit code of an interrupted command: 130 after a Ctrl-C, else 128 + the number of the signal. */
  get exitCode(): number | undefined {
    if (this.first === undefined) return undefined;
    return this.sigints > 0 ? 130 : 128 + constants.signals[this.first];
  }

  /** Runs `body` (waiting for a run, then cancelling it) as a section SIGTERM/SIGHUP must not cut short. */
  async guard<T>(body: () => Promise<T>): Promise<T> {
    this.guarded += 1;
    try {
      return await body();
    } finally {
      this.guarded -= 1;
    }
  }

  /**
   * Decides what `signal` does now, and aborts the controller when it starts the interrupt. The
   * order of a SIGINT and a SIGTERM sent a millisecond apart is not kept (each may be taken by
   * another of Node's threads), so a Ctrl-C counts as the first whether or not pnpm's SIGTERM
   * came before it.
   */
  receive(signal: HandledSignal): InterruptAction {
    if (signal === 'SIGINT') this.sigints += 1;
    if (this.first === undefined) {
      if (signal !== 'SIGINT' && this.guarded === 0) {
        return { kind: 'exit', code: 128 + constants.signals[signal] };
      }
      this.first = signal;
      this.controller.abort(new Error(`interrupted (${signal})`));
      return { kind: 'abort', note: `interrupted (${signal}); cancelling (Ctrl-C again to quit at once)` };
    }
    if (signal === 'SIGINT') {
      return this.sigints >= 2
        ? { kind: 'exit', code: 130 }
        : { kind: 'ignore', note: 'cancelling (Ctrl-C again to quit at once)' };
    }
    if (this.guarded > 0)
      return { kind: 'ignore', note: `${signal} ignored: the cancel request is in flight` };
    return { kind: 'exit', code: this.exitCode ?? 128 + constants.signals[signal] };
  }
}
