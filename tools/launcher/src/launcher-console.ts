import { type LauncherLog, launcherLog, type PrefixedOutput } from './output';

/**
 * What `pnpm start` writes where: its own messages, the services' lines, the one-time secrets and
 * the ready banner. Two views (env.ts LAUNCHER_OUTPUT): `PlainConsole` below (every line as it
 * comes, for files, pipes and production) and `TerminalConsole` (terminal-console.ts: quiet
 * start-up, banner last, then warnings and errors only, readable). In both the one-time blocks (the
 * development key, the dashboard password) are held back and printed with the ready banner, so
 * they are the last thing on the screen (issue 23: 26 log lines used to scroll them away).
 */
export interface LauncherConsole {
  /** The launcher's own messages. */
  readonly log: LauncherLog;
  /** One line a service wrote. */
  serviceLine(name: string, stream: 'stdout' | 'stderr', text: string): void;
  /** Worth reading once (a keyring just made): beside the banner on a terminal, at once otherwise. */
  notice(message: string): void;
  /** A block shown once (the dev key, the dev account): held until the banner. */
  hold(lines: readonly string[]): void;
  /** The platform is ready: what was held, then the banner. */
  ready(banner: readonly string[]): void;
  /** Before the platform was ready something went wrong: show what `names` (default: every service) said. */
  explain(names?: readonly string[]): void;
  /** The start ends without a banner: print what was held (a one-time password must not be lost). */
  flushHeld(): void;
  close(): void;
}

/** Every line as it comes, prefixed with the process name: the services' JSON lines untouched. */
export class PlainConsole implements LauncherConsole {
  readonly log: LauncherLog;
  private held: string[][] = [];

  constructor(private readonly output: PrefixedOutput) {
    this.log = launcherLog(output);
  }

  serviceLine(name: string, stream: 'stdout' | 'stderr', text: string): void {
    this.output.line(name, stream, text);
  }

  notice(message: string): void {
    this.log.info(message);
  }

  hold(lines: readonly string[]): void {
    this.held.push([...lines]);
  }

  ready(banner: readonly string[]): void {
    this.flushHeld();
    this.output.block(banner);
  }

  explain(): void {
    // Everything was printed as it came.
  }

  flushHeld(): void {
    for (const block of this.held) this.output.block(block);
    this.held = [];
  }

  close(): void {}
}
