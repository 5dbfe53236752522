import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli } from '../src/program';

export const ROOT = join(__dirname, '..', '..', '..');
// The package's bin (tsx's require hook, resolved from tools/cli): works from any cwd, where
// `node --import tsx` would look for tsx in the cwd.
const BIN = join(ROOT, 'tools', 'cli', 'bin', 'svc.cjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `svc …` (tools/cli/bin/svc.cjs) as a child process, as a user runs it: the key and
 * the platform by environment only, HOME a directory of the test's (no config file unless it writes
 * one), no pnpm variables (INIT_CWD) from the jest run.
 */
export function svc(
  args: readonly string[],
  env: Record<string, string | undefined>,
  options: { cwd?: string; stdin?: string } = {},
): Promise<CliResult> {
  const childEnv = cliEnv(env);
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: options.cwd ?? ROOT, env: childEnv, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') {
          reject(new Error(`svc ${args.join(' ')}: ${error.message}\n${stderr}`));
          return;
        }
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

/**
 * `svc …` in this jest process: runCli, which the bin runs (src/main.ts adds only signal handling and
 * process.exitCode), with what a child would get from `svc()`: the same environment (cliEnv), cwd and
 * stdin, stdout and stderr collected as a pipe would (not a terminal: no spinner, no colour). Saves a
 * node + tsx start (about a second of CPU) per call; what only a real process shows (the bin's exit
 * code, signals, reading stdin, stdout of a process holding one JSON value) is still tested with
 * `svc()`, `spawnSvc()` and `spawnPnpmSvc()`.
 */
export async function svcInProcess(
  args: readonly string[],
  env: Record<string, string | undefined>,
  options: { cwd?: string; stdin?: string } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    io: {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      interactive: false,
      color: false,
    },
    env: cliEnv(env),
    cwd: options.cwd ?? ROOT,
    readStdin: async () => options.stdin ?? '',
  });
  return { code, stdout, stderr };
}

function cliEnv(env: Record<string, string | undefined>): Record<string, string> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(npm_|INIT_CWD$|SVC_|XDG_CONFIG_HOME$)/.test(name)) childEnv[name] = value;
  }
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) childEnv[name] = value;
  }
  childEnv.NO_COLOR = '1';
  return childEnv;
}

/** A running command whose stderr lines can be awaited (for Ctrl-C tests). */
export interface WatchedCommand {
  child: ChildProcess;
  /** The first stderr line matching `pattern` (at once if already printed); rejects, quoting the output, after `timeoutMs` (default 60 s). */
  stderrLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** The process's own exit (`code` 128 when a signal ended it) and what it printed so far. */
  exit: Promise<CliResult & { signal: NodeJS.Signals | null }>;
  /** Everything printed so far. */
  output(): CliResult;
}

function watch(child: ChildProcess): WatchedCommand {
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of [...waiters]) {
      const line = stderr.split('\n').find((l) => waiter.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exit = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : -1), signal, stdout, stderr }),
    );
  });
  return {
    child,
    exit,
    output: () => ({ code: child.exitCode ?? -1, stdout, stderr }),
    stderrLine: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const line = stderr.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) {
          resolve(line);
          return;
        }
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(
            new Error(
              `no stderr line matching ${pattern} within ${timeoutMs} ms:\n${stderr}\nstdout:\n${stdout}`,
            ),
          );
        }, timeoutMs);
        const waiter = {
          pattern,
          resolve: (found: string) => {
            clearTimeout(timer);
            resolve(found);
          },
        };
        waiters.push(waiter);
      }),
  };
}

/** A running `svc …` (the bin itself) whose stderr lines can be awaited (for Ctrl-C tests). */
export function spawnSvc(args: readonly string[], env: Record<string, string | undefined>): WatchedCommand {
  return watch(
    spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: cliEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** `pnpm svc …` (the README's command) in a process group of its own, as a shell runs a job. */
export interface PnpmSvc extends WatchedCommand {
  /** Ctrl-C at a terminal: SIGINT to every process of the job's group (pnpm and svc alike). */
  interrupt(): void;
  /** Resolves once no process of the group is left (svc may outlive pnpm); rejects after `timeoutMs`. */
  gone(timeoutMs: number): Promise<void>;
  /** SIGKILL to whatever is left of the group (cleanup after a failed test). */
  kill(): void;
}

export function spawnPnpmSvc(args: readonly string[], env: Record<string, string | undefined>): PnpmSvc {
  // detached: its own process group, whose id is pnpm's pid (a job's group at a terminal).
  const child = spawn('pnpm', ['svc', ...args], {
    cwd: ROOT,
    env: cliEnv(env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const group = child.pid;
  if (group === undefined) throw new Error('pnpm did not start');
  const groupAlive = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    ...watch(child),
    interrupt: () => process.kill(-group, 'SIGINT'),
    kill: () => {
      if (groupAlive()) process.kill(-group, 'SIGKILL');
    },
    gone: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (groupAlive()) {
        if (Date.now() > deadline)
          throw new Error(`pnpm svc ${args.join(' ')}: still running after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** stdout of a `--json` run: exactly one JSON value. */
export function jsonOf(result: CliResult): Record<string, unknown> {
  try {
    return JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(
      `not one JSON value on stdout (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`,
    );
  }
}

/**
 * A loopback proxy in front of the gateway that flips one byte of every artifact download. The Host
 * header passes unchanged, so the links the gateway hands out point back at the proxy.
 */
export async function corruptingProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const corrupt = /^\/api\/artifacts\/[^/]+\/download/.test(path);
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers: req.headers },
      (answer) => {
        if (!corrupt) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const middle = Math.floor(body.length / 2);
          if (body.length > 0) body[middle] = (body[middle] ?? 0) ^ 0x01;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A running `svc …` in a pseudo-terminal (util-linux `script`): its screen, keys typed into it. */
export interface PtySession {
  /** Everything the terminal showed so far (stdout and stderr both, with control sequences). */
  screen(): string;
  /** Resolves once the screen matches (rejects when svc exits first). */
  waitFor(pattern: RegExp): Promise<void>;
  /** Types into the terminal. */
  type(text: string): void;
  readonly exit: Promise<{ code: number; screen: string }>;
}

const quoteShell = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * `svc …` on a real pseudo-terminal: `script -qfec <command> /dev/null` (util-linux) gives the
 * command a pty whose output is script's stdout and whose input is script's stdin. Without
 * `columns` the pty has no size (0×0, as when script itself runs without a terminal); with it,
 * `stty` sets one first. TERM is a colour terminal's and CI is unset: ora stays quiet under CI.
 */
export function svcInPty(
  args: readonly string[],
  env: Record<string, string | undefined>,
  options: { cwd?: string; columns?: number } = {},
): PtySession {
  const svcCommand = `exec ${[process.execPath, BIN, ...args].map(quoteShell).join(' ')}`;
  const command =
    options.columns === undefined ? svcCommand : `stty cols ${options.columns} rows 40 && ${svcCommand}`;
  const childEnv = cliEnv({ TERM: 'xterm-256color', ...env });
  delete childEnv.CI;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd ?? ROOT,
    env: childEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let exited = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    wake();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    wake();
  });
  const exit = new Promise<{ code: number; screen: string }>((resolve) => {
    child.on('close', (code, signal) => {
      exited = true;
      child.stdin?.end();
      wake();
      resolve({ code: code ?? (signal ? 128 : -1), screen });
    });
  });
  return {
    screen: () => screen,
    type: (text) => {
      child.stdin?.write(text);
    },
    exit,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(screen)) {
            waiters.delete(check);
            resolve();
          } else if (exited) {
            waiters.delete(check);
            reject(new Error(`svc exited before the terminal showed ${pattern}:\n${screen}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}
