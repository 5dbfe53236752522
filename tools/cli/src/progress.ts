import type { ProgressEvent } from '@svc/sdk';
import type { Output } from './output';

/** What `run` shows while it waits: a spinner with the state on a terminal, plain lines otherwise. */
export interface Progress {
  event(event: ProgressEvent): void;
  /** Ends the display: the spinner stops with the final line. */
  done(ok: boolean, line: string): void;
  /** Ends the display after an error, which the caller prints: the spinner marks its step failed. */
  failed(): void;
}

interface Spinner {
  text: string;
  start(text?: string): Spinner;
  info(text?: string): Spinner;
  succeed(text?: string): Spinner;
  fail(text?: string): Spinner;
}

/**
 * A spinner (ora, on stderr) when stderr is a terminal; otherwise one plain line per step and per
 * state change on stderr, so a log or CI shows the run's history and stdout stays the answer.
 */
export async function createProgress(out: Output): Promise<Progress> {
  if (!out.io.interactive) return new LineProgress(out);
  const { default: ora } = await import('ora');
  return new SpinnerProgress(ora({ stream: process.stderr, discardStdin: false }), out);
}

export function describeEvent(event: ProgressEvent): string {
  switch (event.phase) {
    case 'describe':
      return `describing ${event.slug}`;
    case 'quote': {
      const clearance = event.quote.wallet_clearance as { cleared?: boolean };
      return `quoted ${event.quote.price_usd} USD (quote ${event.quote.quote_id}${clearance.cleared === false ? ', NOT cleared' : ''})`;
    }
    case 'start':
      return `run ${event.runId} started: ${event.status}`;
    case 'status':
      return `run ${event.runId}: ${event.status}${event.run.status_message ? ` (${event.run.status_message})` : ''}`;
  }
}

class LineProgress implements Progress {
  constructor(private readonly out: Output) {}
  event(event: ProgressEvent): void {
    this.out.note(describeEvent(event));
  }
  done(_ok: boolean, line: string): void {
    this.out.note(line);
  }
  failed(): void {
    // Each step is already a line of its own; the error follows as `svc: …`.
  }
}

class SpinnerProgress implements Progress {
  private started = false;
  constructor(
    private readonly spinner: Spinner,
    private readonly out: Output,
  ) {}
  event(event: ProgressEvent): void {
    const text = describeEvent(event);
    if (!this.started) {
      this.spinner.start(text);
      this.started = true;
      return;
    }
    // Every step and state change stays on screen; the spinner shows the latest.
    this.spinner.info(this.spinner.text);
    this.spinner.start(text);
  }
  done(ok: boolean, line: string): void {
    if (!this.started) {
      this.out.note(line);
      return;
    }
    if (ok) this.spinner.succeed(line);
    else this.spinner.fail(line);
  }
  failed(): void {
    // The step that was spinning stays on screen as ✖; the error follows as `svc: …`.
    if (this.started) this.spinner.fail();
  }
}
