import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BalanceResponse, ListCapabilitiesResponse, usdFromMicros, WhoAmIResponse } from '@svc/contracts';
import { readRuntimeInfo, runtimeInfoPath, SERVICE_NAMES, tcpAnswers, vaultKeyringPath } from '@svc/devstack';
import { pollUntil, type TestDatabase } from '@svc/testkit';
import { loadKeyringFile } from '@svc/vault-crypto';
import { readDevAccount } from '../src/dev-account';
import { DEV_BALANCE_MICROS, DEV_CLIENT_NAME, devKeyPath, readDevKey } from '../src/dev-key';
import { CHROMIUM_CANDIDATES, isExecutableFile } from '../src/worker-runtimes';
import {
  answers200,
  cleanUpLauncherSuite,
  get,
  groupAlive,
  LauncherRun,
  launcherLine,
  parentPid,
  prepareLauncherSuite,
  showingOutput,
} from './support/launcher-run';

// The README's first command, end to end: `pnpm start` from the workspace root, run the way a
// terminal runs a foreground job (its own process group) against the test PostgreSQL and Redis, on
// free ports, with a throwaway DATA_DIR. It is stopped the two ways it is stopped in real life: a
// terminal Ctrl-C, which is SIGINT to every process of the group (pnpm and the launcher alike), and
// a process manager's SIGTERM to the pnpm process alone. Either must end in exit code 0 after every
// service stopped cleanly, with nothing left running. An extra wrapper layer (`pnpm start` running
// `pnpm --filter @svc/launcher start`) fails here whatever the timing: the launcher is not pnpm's
// direct child; the inner pnpm, which gets the Ctrl-C twice (terminal and relay), SIGTERMs the
// launcher mid-shutdown, which the launcher reports; and a relay that kills it shows as exit 143.

// ms: one cold start of the stack (tsx compiling seven services at once) takes 10-20 s on 2 cores.
const READY_TIMEOUT_MS = 60_000;
// ms: a clean stop takes well under a second; services give up after SHUTDOWN_TIMEOUT_MS (10 s).
const STOP_TIMEOUT_MS = 30_000;

let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let gatewayUrl: string;
let ports: readonly number[];
const prefix = `launcher${randomBytes(4).toString('hex')}`;
const runs: LauncherRun[] = [];

function startLauncher(): LauncherRun {
  const run = new LauncherRun(env);
  runs.push(run);
  return run;
}

async function waitUntilReady(run: LauncherRun): Promise<void> {
  await run.waitFor('ready gateway', () => answers200(`${gatewayUrl}/readyz`), READY_TIMEOUT_MS);
  // The launcher writes runtime.json and prints its banner once every service is ready.
  await run.waitFor(
    'ready banner',
    () => run.output.includes('Capability service is ready at'),
    READY_TIMEOUT_MS,
  );
}

/**
 * Exit code 0 within STOP_TIMEOUT_MS, every service stopped by the launcher with exit code 0, no
 * pnpm failure text, runtime.json removed, no process of the group left, no port still open.
 */
async function expectCleanStop(run: LauncherRun): Promise<void> {
  const status = await run.exitWithin(STOP_TIMEOUT_MS);
  expect(status).toEqual({ code: 0, signal: null });
  const { output } = run;
  for (const name of SERVICE_NAMES) expect(output).toMatch(launcherLine(`${name} stopped (exit code 0)`));
  expect(output).toMatch(launcherLine('all stopped'));
  // pnpm's " ELIFECYCLE  Command failed with exit code 143." (the launcher SIGTERMed under it), a
  // forced stop (a second signal), or a service that had to be killed.
  expect(output).not.toContain('ELIFECYCLE');
  expect(output).not.toMatch(/exit code 143|signal SIGTERM|SIGKILL|second signal|not a clean exit/);
  // Nor a signal other than the one sent, relayed within the same stop (the launcher survives that,
  // but it means a wrapper, such as a second pnpm layer, turned a Ctrl-C into a SIGTERM).
  expect(output).not.toContain('ignored, part of the same stop');
  expect(output).not.toMatch(/^launcher +\| error: /m);
  expect(fs.existsSync(runtimeInfoPath(dataDir))).toBe(false);
  // pnpm and the launcher are gone (a process left in the group would be an orphan of ours).
  await pollUntil(() => !groupAlive(run.pgid), { what: 'the process group to be gone', timeoutMs: 2_000 });
  expect(groupAlive(run.pgid)).toBe(false);
  // The services run in their own groups: nothing may listen on their ports any more.
  const listening = [];
  for (const port of ports) if (await tcpAnswers('127.0.0.1', port)) listening.push(port);
  expect(listening).toEqual([]);
}

beforeAll(async () => {
  ({ database, dataDir, ports, gatewayUrl, env } = await prepareLauncherSuite('launcher', prefix));
  // The launcher chooses the worker's runtimes only when the operator did not.
  delete env.WORKER_RUNTIMES;
});

afterAll(() => cleanUpLauncherSuite({ runs, ports, database, prefix, dataDir }));

describe('pnpm start', () => {
  let run: LauncherRun;
  let apiKey: string;
  let keyringText: string;

  it(
    'starts the platform: a ready gateway, a working 0600 dev key in DATA_DIR, the catalog, runtime.json',
    async () => {
      run = startLauncher();
      await waitUntilReady(run);

      const keyFile = devKeyPath(dataDir);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      const key = readDevKey(keyFile);
      if (key === null) throw new Error(`${keyFile} holds no key`);
      apiKey = key.api_key;
      // Printed once, with where it is saved (an absolute path: DATA_DIR is outside the workspace).
      expect(run.output).toContain(`Development API key (shown once, saved to ${keyFile}):`);
      expect(run.output).toContain(apiKey);
      // One worker for node and, with a Chromium installed, browser (html-to-pdf); said either way.
      const chromium = env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((file) => isExecutableFile(file));
      expect(run.output).toMatch(
        chromium !== undefined && isExecutableFile(chromium)
          ? launcherLine(
              `worker runtimes: node,browser (Chromium at ${chromium}; set WORKER_RUNTIMES to choose)`,
            )
          : /^launcher +\| warning: worker runtimes: node only: no Chromium at /m,
      );

      const whoami = await get(`${gatewayUrl}/api/account/whoami`, apiKey);
      expect(whoami.status).toBe(200);
      expect(WhoAmIResponse.parse(whoami.json)).toMatchObject({
        client_id: key.client_id,
        client_name: DEV_CLIENT_NAME,
      });
      const balance = await get(`${gatewayUrl}/api/account/balance`, apiKey);
      expect(balance.status).toBe(200);
      expect(BalanceResponse.parse(balance.json)).toMatchObject({
        client_id: key.client_id,
        balance_usd: usdFromMicros(DEV_BALANCE_MICROS),
      });
      const search = await get(`${gatewayUrl}/api/capabilities?q=certificate+transparency`);
      expect(search.status).toBe(200);
      expect(ListCapabilitiesResponse.parse(search.json).capabilities.map((c) => c.slug)).toContain('crt');

      expect(fs.existsSync(runtimeInfoPath(dataDir))).toBe(true);
      // What the launcher writes with an external PostgreSQL and Redis, all of it in DATA_DIR: the
      // key, the artifact link secret, the bus encryption key and the vault keyring (secrets too:
      // 0600), runtime.json, the object store, and the services' bundles it runs.
      expect(fs.readdirSync(dataDir).sort()).toEqual([
        'artifact-link-secret',
        'bundles',
        'bus-encryption-key',
        'dev-account.json',
        'dev-key.json',
        'instances',
        'objects',
        'runtime.json',
        'vault-keyring.json',
      ]);
      // The one-time secrets come with the banner, right before it.
      expect(run.output.indexOf(apiKey)).toBeLessThan(run.output.indexOf('Capability service is ready at'));
      expect(run.output.indexOf(apiKey)).toBeGreaterThan(run.output.indexOf('waiting for them to be ready'));
      expect(fs.statSync(path.join(dataDir, 'artifact-link-secret')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dataDir, 'bus-encryption-key')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dataDir, 'dev-account.json')).mode & 0o777).toBe(0o600);
      // The dev dashboard account: its sign-in URL (the banner says localhost) and, once, its password.
      expect(run.output).toContain(`http://localhost:${new URL(gatewayUrl).port}/dashboard/sign-in`);
      expect(run.output).toContain(
        readDevAccount(path.join(dataDir, 'dev-account.json'))?.password ?? 'no saved account',
      );
      const keyringFile = vaultKeyringPath(dataDir);
      expect(fs.statSync(keyringFile).mode & 0o777).toBe(0o600);
      expect(loadKeyringFile(keyringFile).keyring.versions).toEqual([1]);
      expect(run.output).toContain(`made the vault keyring ${keyringFile} (key version 1, mode 0600)`);
      keyringText = fs.readFileSync(keyringFile, 'utf8');
    },
    READY_TIMEOUT_MS + 30_000,
  );

  it(
    'a terminal Ctrl-C (SIGINT to the whole process group) stops every service and exits 0, leaving nothing',
    async () => {
      expect(run.status).toBeUndefined();
      // One pnpm layer: the launcher (pid in runtime.json) is the direct child of `pnpm start`, so
      // pnpm's relay of the Ctrl-C reaches it as SIGINT. Under a second pnpm layer the inner pnpm
      // gets the SIGINT twice (terminal + relay) and answers the second by SIGTERMing its child.
      const launcherPid = readRuntimeInfo(dataDir)?.pid;
      const launcherParent = launcherPid === undefined ? undefined : parentPid(launcherPid);
      process.kill(-run.pgid, 'SIGINT');
      await showingOutput(run, async () => {
        await expectCleanStop(run);
        expect(launcherParent).toBe(run.child.pid);
      });
    },
    STOP_TIMEOUT_MS + 15_000,
  );

  it(
    'a second start reuses the saved key; SIGTERM to pnpm alone (a process manager) stops it cleanly',
    async () => {
      const second = startLauncher();
      await waitUntilReady(second);
      // The dev dashboard account too: reused, its password not printed again.
      expect(second.output).toContain('Development dashboard account: dev@localhost, password saved in');
      expect(second.output).not.toContain(
        readDevAccount(path.join(dataDir, 'dev-account.json'))?.password ?? '-',
      );
      expect(second.output).toContain(
        `Development API key: saved in ${devKeyPath(dataDir)} (not shown again)`,
      );
      expect(second.output).not.toContain('shown once');
      // The keyring is made once and never replaced: the stored vault values depend on it.
      expect(second.output).not.toContain('made the vault keyring');
      expect(fs.readFileSync(vaultKeyringPath(dataDir), 'utf8')).toBe(keyringText);
      expect(second.output).not.toContain(apiKey);
      expect((await get(`${gatewayUrl}/api/account/whoami`, apiKey)).status).toBe(200);
      expect(fs.existsSync(runtimeInfoPath(dataDir))).toBe(true);

      second.child.kill('SIGTERM');
      await showingOutput(second, () => expectCleanStop(second));
      expect(readDevKey(devKeyPath(dataDir))?.api_key).toBe(apiKey);
    },
    READY_TIMEOUT_MS + STOP_TIMEOUT_MS + 30_000,
  );
});
