import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import {
  CrashHistory,
  type CrashVerdict,
  DEFAULT_RESTART_POLICY,
  formatDelay,
  type RestartPolicy,
} from './restart-policy';

// Runs a set of child processes: spawns them, hands their output on line by line, restarts one
// that exits on its own (never giving up: capped exponential backoff with jitter, restart-policy.ts),
// says so loudly, and stops them all in a given order with SIGTERM, then SIGKILL after a timeout.

export interface ChildSpec {
  name: string;
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SupervisorHooks {
  /** One line of a child's output (without its newline). */
  line(name: string, stream: 'stdout' | 'stderr', text: string): void;
  info(message: string): void;
  /** Worth a look: each crash (with the count and the delay before the restart), a forced kill. */
  warn(message: string): void;
  /** A child entered a crash loop: the loudest line there is (it is still restarted). */
  error(message: string): void;
  /** Every scheduled restart, for callers that track crashes (tests, metrics). */
  restartScheduled?(name: string, status: ExitStatus, verdict: CrashVerdict): void;
  /** A child's process started (every restart too), e.g. to record where it can be reached. */
  spawned?(name: string, pid: number): void;
  /** A child's process ended, crashed or stopped (its output has been read to the end). */
  exited?(name: string, pid: number): void;
}

/** What a supervisor timer is for: a restart's delay, a restarted child's "stayed up", SIGTERM's grace. */
export type TimerPurpose = 'restart' | 'stable' | 'kill';

/**
 * Calls `fire` after `ms` and returns a function that cancels it. The supervisor's only clock,
 * injected so a test decides when a child has "stayed up" or a restart is due instead of waiting
 * real seconds for it; realTimers (setTimeout) everywhere else.
 */
export type ScheduleTimer = (purpose: TimerPurpose, ms: number, fire: () => void) => () => void;

export const realTimers: ScheduleTimer = (_purpose, ms, fire) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

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
  /** Cancels the pending restart. */
  cancelRestart: (() => void) | undefined;
  /** Cancels the timer that fires when a child that had crashed has stayed up `stableAfterMs`. */
  cancelStable: (() => void) | undefined;
  readonly crashes: CrashHistory;

  constructor(
    readonly spec: ChildSpec,
    policy: RestartPolicy,
  ) {
    this.crashes = new CrashHistory(policy);
  }

  clearTimers(): void {
    this.cancelRestart?.();
    this.cancelStable?.();
    this.cancelRestart = undefined;
    this.cancelStable = undefined;
  }
}

export class Supervisor {
  private readonly children = new Map<string, SupervisedChild>();
  private stopping = false;

  constructor(
    specs: readonly ChildSpec[],
    private readonly hooks: SupervisorHooks,
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
    private readonly schedule: ScheduleTimer = realTimers,
  ) {
    for (const spec of specs) this.children.set(spec.name, new SupervisedChild(spec, policy));
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
    const { pid } = proc;
    if (pid !== undefined) this.hooks.spawned?.(name, pid);
    if (child.crashes.streak > 0) {
      child.cancelStable = this.schedule('stable', this.policy.stableAfterMs, () => this.stable(child));
    }
    child.exited = new Promise((resolve) => {
      // 'close', not 'exit': the output has been read to the end by then.
      proc.once('close', (code, signal) => {
        if (child.process === proc) child.process = undefined;
        if (pid !== undefined) this.hooks.exited?.(name, pid);
        child.cancelStable?.();
        const status = { code, signal };
        resolve(status);
        if (!this.stopping) this.crashed(child, status);
      });
    });
  }

  private crashed(child: SupervisedChild, status: ExitStatus): void {
    const { name } = child.spec;
    const verdict = child.crashes.record(Date.now());
    const window = formatDelay(this.policy.loopWindowMs);
    this.hooks.warn(
      `${name} exited unexpectedly (${describeExit(status)}): crash ${verdict.streak} in a row, ` +
        `${verdict.inWindow} within ${window}${verdict.looping ? ', crash-looping' : ''}; ` +
        `restarting it in ${formatDelay(verdict.delayMs)}`,
    );
    if (verdict.enteredLoop) {
      this.hooks.error(
        `${name} is CRASH-LOOPING (${verdict.inWindow} crashes within ${window}): it keeps being ` +
          `restarted, at most ${formatDelay(this.policy.maxDelayMs)} apart, and the loop ends once it ` +
          `stays up for ${formatDelay(this.policy.stableAfterMs)}; the other services keep running. ` +
          'Its own output above says why it exits.',
      );
    }
    this.hooks.restartScheduled?.(name, status, verdict);
    child.cancelRestart = this.schedule('restart', verdict.delayMs, () => {
      child.cancelRestart = undefined;
      if (!this.stopping) this.spawn(child);
    });
  }

  private stable(child: SupervisedChild): void {
    child.cancelStable = undefined;
    const ended = child.crashes.markStable();
    this.hooks.info(
      `${child.spec.name} recovered: up for ${formatDelay(this.policy.stableAfterMs)} after ` +
        `${ended.crashes} crash${ended.crashes === 1 ? '' : 'es'} in a row` +
        `${ended.wasLooping ? ' (crash loop over)' : ''}`,
    );
  }

  /**
   * Stops every child: group after group (each group in parallel), SIGTERM then SIGKILL after
   * `timeoutMs`. Children not named in `order` go last. No restarts happen from here on.
   */
  async stop(order: readonly (readonly string[])[], timeoutMs: number): Promise<void> {
    this.stopping = true;
    for (const child of this.children.values()) child.clearTimers();
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
    const cancelKill = this.schedule('kill', timeoutMs, () => {
      this.hooks.warn(`${name} did not exit within ${timeoutMs} ms of SIGTERM; sending SIGKILL`);
      proc.kill('SIGKILL');
    });
    const status = await child.exited;
    cancelKill();
    const clean = status.code === 0 || status.signal === 'SIGTERM';
    this.hooks.info(`${name} stopped (${describeExit(status)})${clean ? '' : ' [not a clean exit]'}`);
  }

  /** SIGKILL to every child at once (second Ctrl-C), without waiting. */
  killAll(): void {
    this.stopping = true;
    for (const child of this.children.values()) {
      child.clearTimers();
      child.process?.kill('SIGKILL');
    }
  }

  /** Resolves when every child process has exited. */
  async exited(): Promise<void> {
    await Promise.all([...this.children.values()].map((child) => child.exited));
  }
}
