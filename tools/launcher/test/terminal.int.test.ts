import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pollUntil, type TestDatabase } from '@svc/testkit';
import { devAccountPath, readDevAccount } from '../src/dev-account';
import { devKeyPath, readDevKey } from '../src/dev-key';
import {
  answers200,
  cleanUpLauncherSuite,
  get,
  groupAlive,
  LauncherRun,
  prepareLauncherSuite,
  ROOT,
  showingOutput,
} from './support/launcher-run';

// Issue 23, item 10: `pnpm start` on a terminal. It used to print 26 JSON log lines (with "not
// ready … no answer within 1000 ms" warnings) before its banner and one per request after it, so
// the one-time key and password scrolled away. Run here in a real pseudo-terminal (util-linux
// `script`), as a developer types it: start-up is quiet, the secrets and the banner are the last
// thing on the screen and stay so while requests come in, the JSON lines go to <DATA_DIR>/logs/,
// and Ctrl-C (typed into the terminal: ^C through the pty) stops it. Piped, the JSON lines still
// go out as they come (launcher.int.test.ts).

// ms: one cold start of the stack (tsx compiling seven services at once) takes 10-20 s on 2 cores.
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const BANNER = 'Capability service is ready at';

let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let gatewayUrl: string;
let ports: readonly number[];
const prefix = `terminal${randomBytes(4).toString('hex')}`;
let terminal: ChildProcess | undefined;
let screen = '';

/** What the terminal shows, without colours and carriage returns. */
function shown(): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is removed here
  return screen.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');
}

beforeAll(async () => {
  ({ database, dataDir, ports, gatewayUrl, env } = await prepareLauncherSuite('terminal', prefix));
  // A machine without Chromium would add a (rightly shown) warning about the worker's runtimes.
  env.WORKER_RUNTIMES = 'node';
  // As a developer's shell has it: no LOG_LEVEL (the services log at info, requests included).
  delete env.LOG_LEVEL;
  delete env.LAUNCHER_OUTPUT;
  delete env.NODE_ENV;
  // What is shown while the start is slow (the services' own words) has its unit tests; here the start
  // must be quiet however busy the machine is.
  env.LAUNCHER_SLOW_START_MS = String(READY_TIMEOUT_MS);
  execFileSync('script', ['--version']); // util-linux script: the pseudo-terminal of this suite
});

const runs: LauncherRun[] = [];

afterAll(async () => {
  if (terminal?.pid !== undefined && groupAlive(terminal.pid)) process.kill(-terminal.pid, 'SIGKILL');
  await cleanUpLauncherSuite({ runs, ports, database, prefix, dataDir });
}, 60_000);

describe('pnpm start on a terminal', () => {
  it(
    'starts quietly, shows the one-time secrets and the banner last, keeps JSON logs in files, stops on ^C',
    async () => {
      // -q quiet, -f flush at once, -e exit with the command's code, -c the command; no typescript file.
      // `exec`: script runs the command through $SHELL -c, a non-interactive shell that (as dash,
      // CI's /bin/sh, does) dies of the terminal's SIGINT itself, so `script -e` answered 130 however
      // cleanly pnpm stopped. A developer's interactive shell waits out ^C; with exec, pnpm is the
      // terminal's foreground process as it is there. SHELL is pinned so every machine runs this.
      terminal = spawn('script', ['-qfec', 'exec pnpm start', '/dev/null'], {
        cwd: ROOT,
        env: { ...env, SHELL: '/bin/sh' },
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const collect = (chunk: Buffer): void => {
        screen += chunk.toString('utf8');
      };
      terminal.stdout?.on('data', collect);
      terminal.stderr?.on('data', collect);
      const exited = new Promise<number | null>((resolve) =>
        terminal?.once('close', (code) => resolve(code)),
      );
      await pollUntil(() => shown().includes(BANNER) && shown().includes('Stop:     Ctrl-C'), {
        what: 'the ready banner on the terminal',
        timeoutMs: READY_TIMEOUT_MS,
        intervalMs: 200,
        detail: shown,
      });
      expect(await answers200(`${gatewayUrl}/readyz`)).toBe(true);

      // Requests, each of which the gateway logs at info.
      const apiKey = readDevKey(devKeyPath(dataDir))?.api_key ?? 'no key saved';
      const password = readDevAccount(devAccountPath(dataDir))?.password ?? 'no password saved';
      for (let i = 0; i < 3; i += 1) {
        expect((await get(`${gatewayUrl}/api/capabilities?q=certificate`)).status).toBe(200);
        expect((await get(`${gatewayUrl}/api/account/whoami`, apiKey)).status).toBe(200);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      const text = shown();
      const lines = text.split('\n');
      // Not one JSON log line on the terminal, nor a start-up "not ready" warning.
      expect(lines.filter((line) => line.includes('{"level":'))).toEqual([]);
      expect(text).not.toContain('not ready');
      // Before the secrets: pnpm's two lines and the launcher's one line saying where the logs are.
      const prefixed = lines.filter((line) => /^\S+ +\| /.test(line));
      expect(prefixed).toEqual([
        `launcher     | starting the platform; its logs go to ${path.join(dataDir, 'logs')}/ (only problems are shown here)`,
        `launcher     | made the vault keyring ${path.join(dataDir, 'vault-keyring.json')} (key version 1, mode 0600): back it up, stored vault values cannot be read without it`,
      ]);
      // The key, then the password, then the banner; the banner's closing rule is the last line,
      // after six requests.
      const keyAt = text.indexOf(apiKey);
      const passwordAt = text.indexOf(password);
      expect(keyAt).toBeGreaterThan(text.indexOf('starting the platform'));
      expect(passwordAt).toBeGreaterThan(keyAt);
      expect(text.indexOf(BANNER)).toBeGreaterThan(passwordAt);
      expect(text.trimEnd().split('\n').at(-1)).toMatch(/^═+$/);
      expect(text).toContain(`Logs:     ${path.join(dataDir, 'logs')}/<service>.log (JSON lines)`);

      // Every line went to the files instead: JSON, the requests included.
      const gatewayLog = fs
        .readFileSync(path.join(dataDir, 'logs', 'gateway.log'), 'utf8')
        .trim()
        .split('\n');
      for (const line of gatewayLog) expect(JSON.parse(line)).toMatchObject({ service: 'gateway' });
      expect(
        gatewayLog.filter((line) => line.includes('"msg":"request completed"')).length,
      ).toBeGreaterThanOrEqual(6);
      expect(fs.readFileSync(path.join(dataDir, 'logs', 'launcher.log'), 'utf8')).toContain(
        'waiting for them to be ready',
      );
      // The secrets are never written to a log file.
      for (const file of fs.readdirSync(path.join(dataDir, 'logs'))) {
        const content = fs.readFileSync(path.join(dataDir, 'logs', file), 'utf8');
        expect(content).not.toContain(apiKey);
        expect(content).not.toContain(password);
      }

      // Ctrl-C typed into the terminal: SIGINT to its foreground processes, a clean stop.
      terminal.stdin?.write('\u0003');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        exited,
        new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve('timed out'), STOP_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      expect({ code, tail: shown().split(BANNER)[1] }).toEqual({ code: 0, tail: expect.any(String) });
      const after = shown().split(BANNER)[1] ?? '';
      expect(after).toContain('launcher     | SIGINT: stopping the services');
      expect(after).toContain('launcher     | all stopped');
      expect(after).not.toContain('{"level":');
    },
    READY_TIMEOUT_MS + STOP_TIMEOUT_MS + 30_000,
  );

  it(
    'piped, hands on every JSON line as it comes, prefixed with its service, and writes no log files',
    async () => {
      // The terminal's launcher, should the test before have failed before its Ctrl-C: this one
      // starts on the same data directory.
      if (terminal?.pid !== undefined && groupAlive(terminal.pid)) {
        const pid = terminal.pid;
        process.kill(-pid, 'SIGKILL');
        await pollUntil(() => !groupAlive(pid), {
          what: 'the terminal launcher to be gone',
          timeoutMs: 10_000,
        });
      }
      fs.rmSync(path.join(dataDir, 'logs'), { recursive: true, force: true });
      const piped = new LauncherRun(env);
      runs.push(piped);
      await piped.waitFor('the ready banner', () => piped.output.includes(BANNER), READY_TIMEOUT_MS);
      expect((await get(`${gatewayUrl}/api/capabilities?q=certificate`)).status).toBe(200);
      await showingOutput(piped, async () => {
        await pollUntil(() => /^gateway +\| \{"level":30,.*"msg":"request completed"/m.test(piped.output), {
          what: 'the request line on the pipe',
          timeoutMs: 5_000,
        });
        expect(piped.output).toMatch(/^registry +\| \{"level":30,.*"msg":"started"\}$/m);
        expect(piped.output).toMatch(/^launcher +\| migrations: database is up to date$/m);
        expect(piped.output).not.toContain('only problems are shown here');
        expect(fs.existsSync(path.join(dataDir, 'logs'))).toBe(false);
      });
      piped.child.kill('SIGTERM');
      expect(await piped.exitWithin(STOP_TIMEOUT_MS)).toEqual({ code: 0, signal: null });
    },
    READY_TIMEOUT_MS + STOP_TIMEOUT_MS + 15_000,
  );
});
