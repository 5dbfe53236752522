import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { adminInProcess } from '@svc/admin/test/admin-in-process';
import { instancesDir, isProcessAlive, SERVICE_NAMES } from '@svc/devstack';
import { type CommandResult, pollUntil, runCommand, type TestDatabase } from '@svc/testkit';
import { devKeyPath, readDevKey } from '../src/dev-key';
import {
  answers200,
  cleanUpLauncherSuite,
  LauncherRun,
  prepareLauncherSuite,
  ROOT,
  showingOutput,
} from './support/launcher-run';

// Issue 23, items 3 and 6, against a real launcher (`pnpm start`'s command) given DATABASE_URL and a
// BUS_PREFIX other than `svc` (as an operator's shell would: both exported for it):
// - `pnpm admin vault rotation` and `revoke-key` find that platform from what the launcher
//   recorded, with DATABASE_URL still exported and BUS_PREFIX not, and a wrong BUS_PREFIX is said
//   within seconds rather than after a 10 s timeout;
// - the README's "Scaling workers" command, read out of README.md and run as pasted next to it,
//   adds a worker that takes work (the launcher's own worker serves another runtime, so only the
//   new one can run pii-redact) and `pnpm admin instances` (also from the README) lists it with its
//   health address.

// ms: one cold start of the stack (tsx compiling seven services at once) takes 10-20 s on 2 cores.
const READY_TIMEOUT_MS = 60_000;
// ms: a worker process starting (tsx compiling it) and reporting ready.
const WORKER_READY_MS = 45_000;

let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let gatewayUrl: string;
let ports: readonly number[];
const prefix = `optools${randomBytes(4).toString('hex')}`;
const runs: LauncherRun[] = [];
let launcher: LauncherRun;
let worker: ChildProcess | undefined;
let workerOutput = '';

/** The shell of an operator who started `pnpm start` with DATABASE_URL exported and BUS_PREFIX=… inline. */
function operatorEnv(): NodeJS.ProcessEnv {
  const shell = { ...env };
  for (const name of ['BUS_PREFIX', 'REDIS_URL', 'BUS_ENCRYPTION_KEY', 'STORAGE_DIR', 'HEALTH_PORT']) {
    delete shell[name];
  }
  // Its own WORKER_RUNTIMES and ports were given to `pnpm start` only.
  for (const name of Object.keys(shell)) {
    if (
      name.endsWith('_HEALTH_PORT') ||
      name === 'WORKER_RUNTIMES' ||
      name === 'PORT' ||
      name === 'UPLOADS_DATA_PORT' ||
      name === 'DASHBOARD_DATA_PORT'
    ) {
      delete shell[name];
    }
  }
  return shell;
}

/**
 * `admin …` in this process (what its bin runs, with the operator's env and the workspace as cwd):
 * how it finds the platform is what is under test here, and a child would cost a node + tsx start
 * each. The README's `pnpm admin instances` below runs as a child, through pnpm.
 */
function admin(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CommandResult> {
  return adminInProcess(args, { cwd: ROOT, env: { ...operatorEnv(), ...extra } });
}

function jsonOf(result: CommandResult): unknown {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  return JSON.parse(result.stdout);
}

/** The commands of README.md's "Scaling workers" section, the first `sh` block (comments dropped). */
function readmeScalingCommands(): { local: string[]; production: string } {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Scaling workers\n');
  if (start < 0) throw new Error('README.md has no "## Scaling workers" section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const [local, production] = blocks;
  if (local === undefined || production === undefined)
    throw new Error('"Scaling workers" needs two sh blocks');
  return {
    local: local
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== ''),
    production,
  };
}

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

async function jsonField(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null) throw new Error(`not a JSON object: ${String(body)}`);
  return { ...body };
}

beforeAll(async () => {
  ({ database, dataDir, ports, gatewayUrl, env } = await prepareLauncherSuite('optools', prefix));
  // The launcher's worker serves a runtime no capability uses: pii-redact (`node`) waits for a
  // worker that serves it, which only the README's command adds.
  env.WORKER_RUNTIMES = 'spare';
  // The start script's command without pnpm around it (launcher.int.test.ts runs `pnpm start`
  // itself): pnpm's start costs CPU, and what is under test is what the launcher recorded.
  launcher = new LauncherRun(env, { viaPnpm: false });
  runs.push(launcher);
  await launcher.waitFor('ready gateway', () => answers200(`${gatewayUrl}/readyz`), READY_TIMEOUT_MS);
  await launcher.waitFor(
    'ready banner',
    () => launcher.output.includes('Capability service is ready at'),
    READY_TIMEOUT_MS,
  );
}, READY_TIMEOUT_MS + 30_000);

afterAll(async () => {
  if (worker?.pid !== undefined && worker.exitCode === null) {
    try {
      process.kill(-worker.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  await cleanUpLauncherSuite({ runs, ports, database, prefix, dataDir });
}, 60_000);

describe('pnpm admin against a `pnpm start` given DATABASE_URL and BUS_PREFIX', () => {
  it('vault rotation and revoke-key reach that platform, with DATABASE_URL exported and BUS_PREFIX not', async () => {
    await showingOutput(launcher, async () => {
      expect(operatorEnv().DATABASE_URL).toBe(database.url);
      expect(operatorEnv().BUS_PREFIX).toBeUndefined();
      const rotation = jsonOf(await admin(['vault', 'rotation']));
      expect(rotation).toMatchObject({ current_version: 1, keyring_versions: [1] });

      const created = jsonOf(
        await admin(['create-key', '--client', 'revokable', '--scopes', 'capabilities:read']),
      );
      const apiKey =
        typeof created === 'object' && created !== null && 'api_key' in created ? created.api_key : '';
      if (typeof apiKey !== 'string') throw new Error('create-key printed no api_key');
      const revoked = await admin(['revoke-key', apiKey]);
      expect(jsonOf(revoked)).toMatchObject({ revoked: true });
      // The gateway of that platform heard it (it subscribes on the platform's BUS_PREFIX).
      expect(revoked.stderr).toContain('gateways notified (apikey.revoked reached 1 subscriber');
      expect(revoked.stderr).toContain(`BUS_PREFIX=${prefix}`);
    });
  });

  it('a BUS_PREFIX its services do not use is named within seconds, not after a 10 s timeout', async () => {
    const started = Date.now();
    const wrong = await admin(['vault', 'rotation'], { BUS_PREFIX: 'svc' });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      `BUS_PREFIX=svc as set here, while its services use ${prefix}: unset BUS_PREFIX`,
    );
    // Another database than the running platform's: its bus is not guessed, the variables are named.
    const other = await admin(['vault', 'rotation'], { DATABASE_URL: 'postgres://x@127.0.0.1:1/other' });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('set REDIS_URL, BUS_PREFIX and BUS_ENCRYPTION_KEY');
  });
});

describe('README\'s "Scaling workers" command, pasted next to the running `pnpm start`', () => {
  it('documents the production form with every variable a worker needs', () => {
    const { production } = readmeScalingCommands();
    for (const variable of ['REDIS_URL=', 'BUS_PREFIX=', 'BUS_ENCRYPTION_KEY=', 'STORAGE_', 'HEALTH_PORT=']) {
      expect(production).toContain(variable);
    }
    expect(production).toContain('node --import tsx services/worker/src/main.ts');
  });

  it(
    'adds a worker that takes work, listed with its health address by `pnpm admin instances`',
    async () => {
      const { local } = readmeScalingCommands();
      const workerCommand = local.find((line) => line.startsWith('pnpm worker'));
      const instancesCommand = local.find((line) => line.startsWith('pnpm admin instances'));
      if (workerCommand === undefined || instancesCommand === undefined) {
        throw new Error(
          `"Scaling workers" lacks \`pnpm worker\` or \`pnpm admin instances\`: ${local.join(' / ')}`,
        );
      }
      const key = readDevKey(devKeyPath(dataDir))?.api_key ?? '';
      const auth = { authorization: `Bearer ${key}` };

      // A paid run that only a `node` worker can take: queued, waiting for one.
      const input = { text: 'Mail jane@example.com or call +1 415 555 0100' };
      const quoted = await post(`${gatewayUrl}/api/capabilities/pii-redact/quote`, { input }, auth);
      expect(quoted.status).toBe(200);
      const quote = (await jsonField(quoted)).quote;
      const quoteId =
        typeof quote === 'object' && quote !== null && 'quote_id' in quote ? quote.quote_id : undefined;
      const started = await post(
        `${gatewayUrl}/api/capabilities/pii-redact/run`,
        { input, quote_id: quoteId },
        { ...auth, 'idempotency-key': randomUUID() },
      );
      expect(started.status).toBe(202);
      const location = started.headers.get('location');
      if (location === null) throw new Error('no Location on the run');
      const runState = async (): Promise<Record<string, unknown>> =>
        jsonField(
          await fetch(new URL(location, gatewayUrl), { headers: auth, signal: AbortSignal.timeout(10_000) }),
        );
      expect(await runState()).toMatchObject({ status: 'queued' });

      // The command as pasted into a shell, in the workspace, with only DATA_DIR pointing at this
      // test's platform (the default .data is someone else's).
      worker = spawn('sh', ['-c', workerCommand], {
        cwd: ROOT,
        env: operatorEnv(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const collect = (chunk: Buffer): void => {
        workerOutput += chunk.toString('utf8');
      };
      worker.stdout?.on('data', collect);
      worker.stderr?.on('data', collect);
      await pollUntil(() => workerOutput.includes('pnpm worker: worker ready'), {
        what: 'the README worker to be ready',
        timeoutMs: WORKER_READY_MS,
        intervalMs: 200,
        detail: () => workerOutput,
      });

      // It takes the queued run.
      const finished = await pollUntil(
        async () => {
          const state = await runState();
          return state.status === 'completed' || state.status === 'failed' ? state : undefined;
        },
        {
          what: 'the run to finish on the new worker',
          timeoutMs: 60_000,
          intervalMs: 250,
          detail: () => workerOutput,
        },
      );
      expect(finished).toMatchObject({ status: 'completed' });

      // `pnpm admin instances`, from the README too: the new worker with its health address.
      const listed = await runCommand('sh', ['-c', instancesCommand], { cwd: ROOT, env: operatorEnv() });
      const rows = rowsOf(jsonOf(listed));
      const added = rows.filter((row) => row.service === 'worker' && row.started_by === 'pnpm worker');
      expect(added).toEqual([
        expect.objectContaining({ pid: expect.any(Number), health: 'ready', on_bus: true }),
      ]);
      const healthUrl = added[0]?.health_url;
      if (typeof healthUrl !== 'string') throw new Error('the new worker has no health address');
      expect(workerOutput).toContain(`health ${healthUrl} (/healthz, /readyz, /metrics)`);
      // Its own metrics count the run it took.
      const metrics = await (await fetch(`${healthUrl}/metrics`)).text();
      expect(metrics).toMatch(
        /worker_capability_runs_total\{[^}]*job="capability.pii-redact"[^}]*outcome="completed"[^}]*\} 1/,
      );
      // Every service of `pnpm start` is listed with its own health port.
      const fromStart = rows.filter((row) => row.started_by === 'pnpm start').map((row) => row.service);
      expect(fromStart.sort()).toEqual([...SERVICE_NAMES].sort());

      // Ctrl-C in its terminal stops it cleanly (one SIGTERM to the worker, exit 0: no pnpm failure
      // line), and its record goes. ('close': every process holding the shell's output has exited.)
      if (worker.pid === undefined) throw new Error('no worker pid');
      const workerPid = added[0]?.pid;
      const closed = new Promise<void>((resolve) => worker?.once('close', () => resolve()));
      process.kill(-worker.pid, 'SIGINT');
      await closed;
      expect(workerOutput).toContain('pnpm worker: SIGINT: stopping the worker');
      expect(workerOutput).not.toMatch(/ELIFECYCLE|killing the worker|exited on its own/);
      expect(typeof workerPid === 'number' && isProcessAlive(workerPid)).toBe(false);
      expect(fs.readdirSync(instancesDir(dataDir)).filter((name) => name.startsWith('worker-'))).toHaveLength(
        1,
      );
    },
    WORKER_READY_MS + 90_000,
  );
});

interface Row {
  service: unknown;
  pid: unknown;
  started_by: unknown;
  health_url: unknown;
}

/** The rows of `pnpm admin instances` (an array of objects). */
function rowsOf(value: unknown): Row[] {
  if (!Array.isArray(value)) throw new Error(`instances printed no array: ${JSON.stringify(value)}`);
  return value.map((row: unknown) => {
    if (typeof row !== 'object' || row === null) throw new Error('a row is not an object');
    return { service: undefined, pid: undefined, started_by: undefined, health_url: undefined, ...row };
  });
}
