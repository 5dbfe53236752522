import { randomBytes } from 'node:crypto';
import { ReadinessResponse } from '@svc/contracts';
import { readRuntimeInfo, SERVICE_NAMES, serviceEntry } from '@svc/devstack';
import type { TestDatabase } from '@svc/testkit';
import { devKeyPath, readDevKey } from '../src/dev-key';
import {
  answers200,
  childPid,
  cleanUpLauncherSuite,
  get,
  LauncherRun,
  launcherLine,
  prepareLauncherSuite,
  showingOutput,
} from './support/launcher-run';

// Issue 13: a crash-looping service must not take the platform down. The launcher as `pnpm start`
// runs it; the uploads process is SIGKILLed each time the launcher starts it again (a crash loop as
// seen from outside, like the aborted-upload crash of finding 1). The launcher must keep
// restarting it and keep everything else running: search (registry) and balance (wallet) answer
// through the gateway throughout, the gateway's /readyz stays 200 and reports uploads not ready,
// then ready again once it is left alone. The old launcher shut every service down after the sixth
// crash in a minute ("uploads keeps crashing: shutting everything down"). Before the platform was
// ever ready, though, a crash loop means a misconfigured service: that start fails, naming it.

// ms: one cold start of the stack (tsx compiling seven services at once) takes 10-20 s on 2 cores.
const READY_TIMEOUT_MS = 90_000;
// Kills of uploads: past the old limit (5 restarts a minute), and a crash loop by the new policy.
const KILLS = 8;
// ms: the kills, restarts at most LAUNCHER_RESTART_MAX_DELAY_MS apart, and uploads' last report
// lapsing in the gateway's view (15 s), with room for a loaded machine.
const CRASH_LOOP_TIMEOUT_MS = 120_000;
// ms: a clean stop takes well under a second; services give up after SHUTDOWN_TIMEOUT_MS (10 s).
const STOP_TIMEOUT_MS = 30_000;

let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let gatewayUrl: string;
let ports: readonly number[];
const prefix = `crashloop${randomBytes(4).toString('hex')}`;
const runs: LauncherRun[] = [];

function startLauncher(extraEnv: NodeJS.ProcessEnv = {}): LauncherRun {
  // The start script's command without pnpm around it: what is under test is the launcher's
  // supervision (launcher.int.test.ts runs `pnpm start` itself), and pnpm's start costs CPU.
  const run = new LauncherRun({ ...env, ...extraEnv }, { viaPnpm: false });
  runs.push(run);
  return run;
}

beforeAll(async () => {
  ({ database, dataDir, ports, gatewayUrl, env } = await prepareLauncherSuite('crashloop', prefix));
  // Restarts at most 1 s apart (default 30 s), so eight crashes take seconds, not minutes.
  env.LAUNCHER_RESTART_MAX_DELAY_MS = '1000';
});

afterAll(() => cleanUpLauncherSuite({ runs, ports, database, prefix, dataDir }));

/** The gateway's public /readyz: its status and parsed report. */
async function readiness(): Promise<{ status: number; report: ReadinessResponse }> {
  const { status, json } = await get(`${gatewayUrl}/readyz`);
  return { status, report: ReadinessResponse.parse(json) };
}

/** The uploads process: its title once it has set it, its bundle (or source entry) before that. */
function isUploads(args: string): boolean {
  return args === 'uploads' || args.endsWith('/uploads.js') || args.includes(serviceEntry('uploads'));
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone (it crashed on its own, or was just replaced).
  }
}

it(
  'keeps restarting a crash-looping service; the others keep serving and /readyz shows it not ready, then ready again',
  async () => {
    const current = startLauncher();
    await showingOutput(current, async () => {
      await current.waitFor('ready gateway', () => answers200(`${gatewayUrl}/readyz`), READY_TIMEOUT_MS);
      await current.waitFor(
        'ready banner',
        () => current.output.includes('Capability service is ready at'),
        READY_TIMEOUT_MS,
      );
      const apiKey = readDevKey(devKeyPath(dataDir))?.api_key;
      const launcherPid = readRuntimeInfo(dataDir)?.pid;
      if (apiKey === undefined || launcherPid === undefined) throw new Error('no dev key or runtime.json');
      // Every backing service has reported itself ready to the gateway (its /readyz names each one).
      await current.waitFor(
        'every service ready in /readyz',
        async () => {
          const reported = Object.values((await readiness()).report.services ?? {});
          return reported.length > 0 && reported.every((service) => service?.ok === true);
        },
        READY_TIMEOUT_MS,
      );

      // Kill uploads each time it comes back, until it has died KILLS times and the gateway says it
      // is not ready; search and balance are asked all along.
      const answers: Array<{ what: string; status: number }> = [];
      let kills = 0;
      let lastKilled: number | undefined;
      let notReady: { status: number; report: ReadinessResponse } | undefined;
      await current.waitFor(
        `uploads killed ${KILLS} times and reported not ready`,
        async () => {
          const pid = childPid(launcherPid, isUploads);
          if (pid !== undefined && pid !== lastKilled) {
            killQuietly(pid);
            lastKilled = pid;
            kills += 1;
          }
          answers.push({
            what: 'search',
            status: (await get(`${gatewayUrl}/api/capabilities?q=pdf`)).status,
          });
          answers.push({
            what: 'balance',
            status: (await get(`${gatewayUrl}/api/account/balance`, apiKey)).status,
          });
          const ready = await readiness();
          if (ready.report.services?.uploads?.ok === false) notReady = ready;
          return kills >= KILLS && notReady !== undefined;
        },
        CRASH_LOOP_TIMEOUT_MS,
      );

      expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
      // The gateway stays in rotation (200, ok) and names the one service that is down.
      expect(notReady?.status).toBe(200);
      expect(notReady?.report.ok).toBe(true);
      expect(notReady?.report.services?.uploads).toMatchObject({ ok: false, instances: 0 });
      expect(notReady?.report.services?.registry?.ok).toBe(true);
      expect(notReady?.report.services?.wallet?.ok).toBe(true);
      // Said loudly: a warning per crash, one error line for the loop, and no shutdown.
      const crashLines = current.output.match(
        /^launcher +\| warning: uploads exited unexpectedly \(signal SIGKILL\): crash \d+ in a row/gm,
      );
      expect(crashLines?.length ?? 0).toBeGreaterThanOrEqual(KILLS);
      expect(current.output).toMatch(
        /^launcher +\| error: uploads is CRASH-LOOPING \(\d+ crashes within 60 s\)/m,
      );
      expect(current.output).not.toContain('shutting everything down');
      expect(current.status).toBeUndefined();

      // Left alone, it comes back: restarted by the launcher, reported ready again.
      await current.waitFor(
        'uploads ready again in /readyz',
        async () => (await readiness()).report.services?.uploads?.ok === true,
        READY_TIMEOUT_MS,
      );
      expect((await get(`${gatewayUrl}/api/capabilities?q=pdf`)).status).toBe(200);

      // A stop still stops everything in order and exits 0.
      current.child.kill('SIGTERM');
      expect(await current.exitWithin(STOP_TIMEOUT_MS)).toEqual({ code: 0, signal: null });
      for (const name of SERVICE_NAMES) {
        expect(current.output).toMatch(launcherLine(`${name} stopped (exit code 0)`));
      }
      expect(current.output).toMatch(launcherLine('all stopped'));
    });
  },
  READY_TIMEOUT_MS * 3 + CRASH_LOOP_TIMEOUT_MS + STOP_TIMEOUT_MS,
);

it(
  'a service that crash-loops before the platform was ever ready fails the start, naming it, and stops the rest',
  async () => {
    // Only uploads reads this variable: it exits at once on every start, naming it.
    const current = startLauncher({ UPLOAD_SESSION_TTL_MS: 'soon' });
    await showingOutput(current, async () => {
      expect(await current.exitWithin(READY_TIMEOUT_MS + STOP_TIMEOUT_MS)).toEqual({ code: 1, signal: null });
      expect(current.output).toMatch(/^uploads +\| .*UPLOAD_SESSION_TTL_MS/m);
      expect(current.output).toMatch(/^launcher +\| error: uploads is CRASH-LOOPING/m);
      expect(current.output).toMatch(
        launcherLine('uploads keeps crashing before the platform was ever ready: stopping the start'),
      );
      expect(current.output).not.toContain('Capability service is ready at');
      for (const name of SERVICE_NAMES.filter((service) => service !== 'uploads')) {
        expect(current.output).toMatch(launcherLine(`${name} stopped (exit code 0)`));
      }
    });
  },
  READY_TIMEOUT_MS + STOP_TIMEOUT_MS * 2,
);
