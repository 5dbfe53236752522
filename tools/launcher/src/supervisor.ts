import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

// Runs a set of child processes: spawns them, hands their output on line by line, restarts one
// that exits on its own (with backoff, a bounded number of times per window), and stops them all
// in a given order with SIGTERM, then SIGKILL after a timeout.

export interface ChildSpec {
  name: string;
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface RestartPolicy {
  /** Restarts allowed within `windowMs`; one more crash in the window gives up. */
  maxRestarts: number;
  /** ms */
  windowMs: number;
  /** ms before the first restart; doubled for each recent restart, capped at `maxDelayMs`. */
  initialDelayMs: number;
  /** ms */
  maxDelayMs: number;
}

/** 5 restarts a minute, after 0.5, 1, 2, 4, 8 s: a crash loop gives up within a minute. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxRestarts: 5,
  windowMs: 60_000,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
};

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SupervisorHooks {
  /** One line of a child's output (without its newline). */
  line(name: string, stream: 'stdout' | 'stderr', text: string): void;
  info(message: string): void;
  warn(message: string): void;
  /** A child crashed more often than the policy allows; the supervisor no longer restarts it. */
  gaveUp(name: string, status: ExitStatus): void;
}

export function describeExit(status: ExitStatus): string {
  return status.signal === null ? `exit code ${status.code}` : `signal ${status.signal}`;
}

/** Calls `onLine` for every complete line of `stream`, and for a last unterminated one at its end. */
function forEachLine(stream: Readable, onLine: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line.replace(/\r$/, ''));
  });
  stream.on('end', () => {
    if (pending !== '') onLine(pending);
    pending = '';
  });
}

class SupervisedChild {
  process: ChildProcess | undefined;
  exited: Promise<ExitStatus> = Promise.resolve({ code: null, signal: null });
  restartTimer: NodeJS.Timeout | undefined;
  /** Times (ms since epoch) of recent unexpected exits. */
  crashes: number[] = [];
  gaveUp = false;

  constructor(readonly spec: ChildSpec) {}
}

export class Supervisor {
  private readonly children = new Map<string, SupervisedChild>();
  private stopping = false;

  constructor(
    specs: readonly ChildSpec[],
    private readonly hooks: SupervisorHooks,
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
  ) {
    for (const spec of specs) this.children.set(spec.name, new SupervisedChild(spec));
  }

  /** Spawns every child. */
  start(): void {
    for (const child of this.children.values()) this.spawn(child);
  }

  /** Pid of a child's current process (undefined while it is down). */
  pid(name: string): number | undefined {
    return this.children.get(name)?.process?.pid;
  }

  private spawn(child: SupervisedChild): void {
    const { name, command, args, cwd, env } = child.spec;
    // detached: its own process group, so a terminal's Ctrl-C reaches only us and we decide the
    // order in which services stop (they watch for our death themselves: parent-watch.ts).
    const proc = spawn(command, [...args], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.process = proc;
    if (proc.stdout) forEachLine(proc.stdout, (text) => this.hooks.line(name, 'stdout', text));
    if (proc.stderr) forEachLine(proc.stderr, (text) => this.hooks.line(name, 'stderr', text));
    proc.once('error', (err) => this.hooks.warn(`${name}: ${err.message}`));
    child.exited = new Promise((resolve) => {
      // 'close', not 'exit': the output has been read to the end by then.
      proc.once('close', (code, signal) => {
        if (child.process === proc) child.process = undefined;
        const status = { code, signal };
        resolve(status);
        if (!this.stopping) this.crashed(child, status);
      });
    });
  }

  private crashed(child: SupervisedChild, status: ExitStatus): void {
    const { name } = child.spec;
    const now = Date.now();
    child.crashes = child.crashes.filter((at) => now - at < this.policy.windowMs);
    if (child.crashes.length >= this.policy.maxRestarts) {
      child.gaveUp = true;
      this.hooks.warn(
        `${name} exited (${describeExit(status)}): ${child.crashes.length + 1} crashes within ${this.policy.windowMs / 1000} s, not restarting it`,
      );
      this.hooks.gaveUp(name, status);
      return;
    }
    const delay = Math.min(this.policy.initialDelayMs * 2 ** child.crashes.length, this.policy.maxDelayMs);
    child.crashes.push(now);
    this.hooks.warn(
      `${name} exited unexpectedly (${describeExit(status)}); restarting it in ${delay} ms ` +
        `(restart ${child.crashes.length} of at most ${this.policy.maxRestarts} per ${this.policy.windowMs / 1000} s)`,
    );
    child.restartTimer = setTimeout(() => {
      child.restartTimer = undefined;
      if (!this.stopping) this.spawn(child);
    }, delay);
  }

  /**
   * Stops every child: group after group (each group in parallel), SIGTERM then SIGKILL after
   * `timeoutMs`. Children not named in `order` go last. No restarts happen from here on.
   */
  async stop(order: readonly (readonly string[])[], timeoutMs: number): Promise<void> {
    this.stopping = true;
    for (const child of this.children.values()) clearTimeout(child.restartTimer);
    const named = new Set(order.flat());
    const groups = [...order, [...this.children.keys()].filter((name) => !named.has(name))];
    for (const group of groups) {
      await Promise.all(group.map((name) => this.stopOne(name, timeoutMs)));
    }
  }

  private async stopOne(name: string, timeoutMs: number): Promise<void> {
    const child = this.children.get(name);
    const proc = child?.process;
    if (child === undefined || proc === undefined) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => {
      this.hooks.warn(`${name} did not exit within ${timeoutMs} ms of SIGTERM; sending SIGKILL`);
      proc.kill('SIGKILL');
    }, timeoutMs);
    const status = await child.exited;
    clearTimeout(timer);
    const clean = status.code === 0 || status.signal === 'SIGTERM';
    this.hooks.info(`${name} stopped (${describeExit(status)})${clean ? '' : ' [not a clean exit]'}`);
  }

  /** SIGKILL to every child at once (second Ctrl-C), without waiting. */
  killAll(): void {
    this.stopping = true;
    for (const child of this.children.values()) {
      clearTimeout(child.restartTimer);
      child.process?.kill('SIGKILL');
    }
  }

  /** Resolves when every child process has exited. */
  async exited(): Promise<void> {
    await Promise.all([...this.children.values()].map((child) => child.exited));
  }
}
