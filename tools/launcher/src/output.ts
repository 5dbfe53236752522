import type { Writable } from 'node:stream';

// Every line on the launcher's terminal starts with the name of the process that wrote it:
// `registry     | {"level":30,…}`. Colours only when the stream is a terminal (piped output and
// log files stay plain text).

/** ANSI foreground colours handed out to names in order. */
const COLOURS = [36, 32, 33, 35, 34, 96, 92, 93, 95];
const RESET = '\u001b[0m';
const BOLD = '\u001b[1m';

function isTty(stream: Writable): boolean {
  return 'isTTY' in stream && stream.isTTY === true;
}

export class PrefixedOutput {
  private readonly colours = new Map<string, number>();

  constructor(
    /** Names are padded to this width so the `|` columns line up. */
    private readonly width: number,
    private readonly stdout: Writable = process.stdout,
    private readonly stderr: Writable = process.stderr,
  ) {}

  private prefix(name: string, stream: Writable): string {
    const padded = name.padEnd(this.width);
    if (!isTty(stream)) return `${padded} | `;
    let colour = this.colours.get(name);
    if (colour === undefined) {
      colour = COLOURS[this.colours.size % COLOURS.length] ?? 36;
      this.colours.set(name, colour);
    }
    return `\u001b[${colour}m${padded} |${RESET} `;
  }

  /** One line written by a process (`stream` says which of its outputs it came from). */
  line(name: string, stream: 'stdout' | 'stderr', text: string): void {
    const target = stream === 'stdout' ? this.stdout : this.stderr;
    target.write(`${this.prefix(name, target)}${text}\n`);
  }

  /** A block of plain lines (banners), bold on a terminal. */
  block(lines: readonly string[]): void {
    const bold = isTty(this.stdout);
    const text = lines.map((line) => (bold ? `${BOLD}${line}${RESET}` : line)).join('\n');
    this.stdout.write(`${text}\n`);
  }
}

/** The launcher's own messages, shaped like devstack's logger (a `DevstackLogger`). */
export interface LauncherLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

export function launcherLog(output: PrefixedOutput, name = 'launcher'): LauncherLog {
  return {
    info: (message) => output.line(name, 'stdout', message),
    warn: (message) => output.line(name, 'stderr', `warning: ${message}`),
    error: (message) => output.line(name, 'stderr', `error: ${message}`),
    debug: () => undefined,
  };
}
