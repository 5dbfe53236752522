import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { portEnv, probeBaseUrl, type ServiceName, type ServicePorts } from '@svc/devstack';
import { answersOk, sleep } from './http';
import { serviceNodeArguments } from './service-bundles';

// ms between two readiness probes while a service starts.
const PROBE_INTERVAL_MS = 100;
// chars of a service's output quoted in an error message (the tail: where the failure is).
const QUOTED_OUTPUT_CHARS = 20_000;

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildServiceOptions {
  name: ServiceName;
  rootDir: string;
  env: NodeJS.ProcessEnv;
  ports: ServicePorts;
  /** Also append the output to this file (the shared stack's services: suites read it there). */
  logFile?: string;
  /** Extra `--import` modules for node (execution probes): they hook the sources, run under tsx. */
  nodeImports?: readonly string[];
  /** Load the parent-death watch first (@svc/devstack parent-watch.ts): the shared stack's services. */
  parentWatch?: boolean;
}

/**
 * Children still running in this process. If a test file ends without close() (a failed
 * beforeAll, a forgotten afterAll), the jest worker's exit SIGKILLs them rather than leaving
 * services bound to ports and polling Redis forever. The listener exists only while children do,
 * so test files sharing a worker do not pile listeners up.
 */
const live = new Set<ChildProcess>();

function killLiveChildren(): void {
  for (const child of live) child.kill('SIGKILL');
}

function track(child: ChildProcess): void {
  if (live.size === 0) process.on('exit', killLiveChildren);
  live.add(child);
}

function untrack(child: ChildProcess): void {
  if (live.delete(child) && live.size === 0) process.off('exit', killLiveChildren);
}

export function describeExit(status: ExitStatus): string {
  return status.signal === null ? `exit code ${status.code}` : `signal ${status.signal}`;
}

/** One service process of a stack: spawn, output capture, readiness wait, signals, restarts. */
export class ChildService {
  readonly name: ServiceName;
  private readonly chunks: string[] = [];
  private child: ChildProcess | undefined;
  private exited: Promise<ExitStatus> = Promise.resolve({ code: null, signal: null });
  /** Set while we are the ones ending the process, so its exit is not reported as a crash. */
  private expectingExit = false;
  /** Exits nobody asked for (crashes), in order. */
  private readonly unexpectedExits: ExitStatus[] = [];
  /** How many of them an error or report has already shown (each crash is printed once). */
  private reportedExits = 0;

  constructor(private readonly options: ChildServiceOptions) {
    this.name = options.name;
  }

  /**
   * Another process of the same service (not started): the same env except its ports, e.g. a
   * second worker consuming the same queues (TestStack.startReplica).
   */
  withPorts(ports: ServicePorts, env: Record<string, string> = {}): ChildService {
    return new ChildService({
      ...this.options,
      env: { ...this.options.env, ...env, ...portEnv(ports) },
      ports,
    });
  }

  /** Crashes not shown yet, marking them shown. */
  takeUnreportedExits(): ExitStatus[] {
    const fresh = this.unexpectedExits.slice(this.reportedExits);
    this.reportedExits = this.unexpectedExits.length;
    return fresh;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Everything the process wrote to stdout and stderr so far, across restarts, in arrival order. */
  logs(): string {
    return this.chunks.join('');
  }

  /** The end of the output, for error messages. */
  tail(): string {
    const all = this.logs();
    return all.length > QUOTED_OUTPUT_CHARS ? `…${all.slice(-QUOTED_OUTPUT_CHARS)}` : all;
  }

  /** Spawns the process (it must not be running) and waits until /healthz and /readyz answer 200. */
  async start(timeoutMs: number): Promise<void> {
    if (this.child !== undefined) throw new Error(`${this.name} is already running`);
    const child = spawn(process.execPath, this.nodeArguments(), {
      cwd: this.options.rootDir,
      env: this.options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.expectingExit = false;
    track(child);
    const logFile = this.options.logFile;
    const keep = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      this.chunks.push(text);
      // Synchronous, so a reader of the file sees every line the service wrote before it answered.
      if (logFile !== undefined) appendFileSync(logFile, text);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise<ExitStatus>((resolve) => {
      // 'close' (not 'exit'): fires after stdout/stderr are drained, so logs() is complete.
      child.once('close', (code, signal) => {
        untrack(child);
        if (this.child === child) this.child = undefined;
        const status = { code, signal };
        if (!this.expectingExit) this.unexpectedExits.push(status);
        resolve(status);
      });
    });
    child.once('error', (err) => {
      this.chunks.push(`\n[testkit] could not run ${this.name}: ${err.message}\n`);
    });
    await this.waitReady(child, timeoutMs);
  }

  /**
   * The prebuilt bundle of the service when the integration set-up made them (service-bundles.ts),
   * else `node --import tsx services/<name>/src/main.ts`, cwd the workspace root. Extra `--import`
   * modules (execution probes) hook the sources: those run under tsx.
   */
  private nodeArguments(): string[] {
    return serviceNodeArguments(this.name, this.options.env, {
      parentWatch: this.options.parentWatch === true,
      ...(this.options.nodeImports === undefined ? {} : { imports: this.options.nodeImports }),
    });
  }

  private async waitReady(child: ChildProcess, timeoutMs: number): Promise<void> {
    const base = probeBaseUrl(this.name, this.options.ports);
    const deadline = Date.now() + timeoutMs;
    for (const probe of ['/healthz', '/readyz']) {
      while (!(await answersOk(`${base}${probe}`))) {
        if (this.child !== child) {
          const status = await this.exited;
          this.takeUnreportedExits(); // quoted right here
          throw new Error(
            `${this.name} exited (${describeExit(status)}) before answering ${probe}. Its output:\n${this.tail()}`,
          );
        }
        if (Date.now() >= deadline) {
          await this.signal('SIGKILL', 0);
          throw new Error(
            `${this.name} did not answer 200 on ${base}${probe} within ${timeoutMs} ms. Its output:\n${this.tail()}`,
          );
        }
        await sleep(PROBE_INTERVAL_MS);
      }
    }
  }

  /**
   * Sends `signal` and waits for the exit. When `escalateAfterMs` passes first, SIGKILL follows
   * (a shutdown that hangs must not hang the test run). Not running: resolves at once with the
   * last exit status.
   */
  async signal(signal: NodeJS.Signals, escalateAfterMs: number): Promise<ExitStatus> {
    const child = this.child;
    if (child === undefined) return this.exited;
    this.expectingExit = true;
    child.kill(signal);
    const timer = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), escalateAfterMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
