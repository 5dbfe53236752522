import fs from 'node:fs';
import path from 'node:path';
import type { LauncherConsole } from './launcher-console';
import { isNotable, type ReadableLine, readableLine } from './log-lines';
import type { LauncherLog, PrefixedOutput } from './output';

// `pnpm start` on a terminal in development (issue 23): one line while it starts, nothing from the
// services unless something goes wrong, then the one-time secrets and the banner as the last
// thing on the screen; after that only warnings and errors, readable. Every line a service writes
// (JSON, as in production) goes to <DATA_DIR>/logs/<service>.log, the launcher's own messages to
// launcher.log; the files start empty at every `pnpm start`.

/** Lines kept per service while the platform starts, to explain a failure (older ones are dropped). */
const KEPT_LINES = 200;

interface KeptLine {
  stream: 'stdout' | 'stderr';
  line: ReadableLine;
}

export class TerminalConsole implements LauncherConsole {
  readonly log: LauncherLog;
  private starting = true;
  private closed = false;
  private readonly files = new Map<string, number>();
  private readonly kept = new Map<string, KeptLine[]>();
  private notices: string[] = [];
  private held: string[][] = [];

  constructor(
    private readonly output: PrefixedOutput,
    /** <DATA_DIR>/logs */
    private readonly logDir: string,
    /** logDir as the user types it (relative to the workspace root when inside it). */
    shownLogDir: string,
  ) {
    fs.mkdirSync(logDir, { recursive: true, mode: 0o700 });
    // The launcher's own file gets a time per line, as the services' JSON lines have.
    const stamp = (message: string): string => `${new Date().toISOString()} ${message}`;
    this.log = {
      info: (message) => {
        this.append('launcher', stamp(message));
        if (!this.starting) output.line('launcher', 'stdout', message);
      },
      warn: (message) => {
        this.append('launcher', stamp(`warning: ${message}`));
        output.line('launcher', 'stderr', `warning: ${message}`);
      },
      error: (message) => {
        this.append('launcher', stamp(`error: ${message}`));
        output.line('launcher', 'stderr', `error: ${message}`);
      },
      debug: (message) => this.append('launcher', stamp(message)),
    };
    output.line(
      'launcher',
      'stdout',
      `starting the platform; its logs go to ${shownLogDir}/ (only problems are shown here)`,
    );
  }

  /** Appends one line to <logDir>/<name>.log (made empty the first time in this run). */
  private append(name: string, text: string): void {
    if (this.closed) return;
    let fd = this.files.get(name);
    if (fd === undefined) {
      fd = fs.openSync(path.join(this.logDir, `${name}.log`), 'w', 0o600);
      this.files.set(name, fd);
    }
    // Synchronous: a line is on disk before the launcher can exit (a crash report must not be lost).
    fs.writeSync(fd, `${text}\n`);
  }

  serviceLine(name: string, stream: 'stdout' | 'stderr', text: string): void {
    this.append(name, text);
    const line = readableLine(text);
    if (this.starting) {
      const lines = this.kept.get(name) ?? [];
      lines.push({ stream, line });
      lines.splice(0, Math.max(0, lines.length - KEPT_LINES));
      this.kept.set(name, lines);
    } else if (isNotable(line)) {
      this.output.line(name, stream, line.text);
    }
  }

  notice(message: string): void {
    this.append('launcher', `${new Date().toISOString()} ${message}`);
    this.notices.push(message);
  }

  hold(lines: readonly string[]): void {
    this.held.push([...lines]);
  }

  ready(banner: readonly string[]): void {
    // The "not ready" warnings of a normal start (the launcher probing /readyz before the database
    // answers) are no news once everything is up.
    this.starting = false;
    this.kept.clear();
    this.flushHeld();
    this.output.block(banner);
  }

  explain(names?: readonly string[]): void {
    for (const name of names ?? [...this.kept.keys()]) {
      for (const { stream, line } of this.kept.get(name) ?? []) this.output.line(name, stream, line.text);
      this.kept.delete(name);
    }
  }

  flushHeld(): void {
    for (const notice of this.notices) this.output.line('launcher', 'stdout', notice);
    this.notices = [];
    for (const block of this.held) this.output.block(block);
    this.held = [];
  }

  close(): void {
    this.closed = true;
    for (const fd of this.files.values()) fs.closeSync(fd);
    this.files.clear();
  }
}
