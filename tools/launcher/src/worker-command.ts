// `pnpm worker`: one more worker next to a running `pnpm start` (README "Scaling workers"; issue 23:
// the command written there failed when pasted, and a worker on HEALTH_PORT=0 showed its address
// only in a JSON log line). It reads what `pnpm start` recorded in <DATA_DIR>/runtime.json (Redis,
// BUS_PREFIX, the bus key file, STORAGE_DIR), gives the worker a free HEALTH_PORT (or HEALTH_PORT),
// records it in <DATA_DIR>/instances/ for `pnpm admin instances`, says where it answers once it is
// ready, and stops it on Ctrl-C, on SIGTERM, or when that `pnpm start` stops.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import readline from 'node:readline';
import {
  displayPath,
  findWorkspaceRoot,
  freePort,
  isProcessAlive,
  type RuntimeInfo,
  readRuntimeInfo,
  removeInstanceRecord,
  runtimeInfoPath,
  sourceServiceArguments,
  writeInstanceRecord,
} from '@svc/devstack';
import { loadWorkerCommandSettings } from './env';
import { readableLine } from './log-lines';
import { PrefixedOutput } from './output';
import { waitUntilReady } from './readiness';

// ms between two checks that the `pnpm start` this worker joined is still running.
const LAUNCHER_CHECK_MS = 1_000;
// ms: a second signal this soon after the first is the same Ctrl-C relayed by pnpm (main.ts).
const SIGNAL_ECHO_MS = 1_000;

const rootDir = findWorkspaceRoot(__dirname);
const settings = loadWorkerCommandSettings(rootDir);
const output = new PrefixedOutput('worker'.length);

/** This command's own messages: stderr, so stdout carries only the worker's (JSON when piped). */
function say(message: string): void {
  process.stderr.write(`pnpm worker: ${message}\n`);
}

function fail(message: string): never {
  say(`error: ${message}`);
  process.exit(1);
}

/** The running `pnpm start` of DATA_DIR, or an exit naming what is missing. */
function runningPlatform(): RuntimeInfo {
  const file = displayPath(rootDir, runtimeInfoPath(settings.dataDir));
  let info: RuntimeInfo | null;
  try {
    info = readRuntimeInfo(settings.dataDir);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const missing =
    info === null
      ? `no ${file}`
      : isProcessAlive(info.pid)
        ? undefined
        : `${file} names launcher pid ${info.pid}, not running`;
  if (info === null || missing !== undefined) {
    fail(
      `no running \`pnpm start\` to join (${missing}): start it first, or set DATA_DIR to its data directory. ` +
        'A worker for another deployment is started with its own variables (README "Scaling workers", production form).',
    );
  }
  return info;
}

/** The key every process of that platform seals with: BUS_ENCRYPTION_KEY when set, else its launcher's file. */
function busKey(info: RuntimeInfo): string {
  if (settings.busEncryptionKey !== undefined) return settings.busEncryptionKey;
  if (info.busEncryptionKeyFile === null) {
    fail(
      `the \`pnpm start\` to join (launcher pid ${info.pid}) was given BUS_ENCRYPTION_KEY by its environment: ` +
        'set the same BUS_ENCRYPTION_KEY for `pnpm worker`',
    );
  }
  return fs.readFileSync(info.busEncryptionKeyFile, 'utf8').trim();
}

async function main(): Promise<void> {
  const info = runningPlatform();
  const healthPort = settings.healthPort ?? (await freePort());
  const healthUrl = `http://127.0.0.1:${healthPort}`;
  const env: NodeJS.ProcessEnv = {
    ...settings.passThrough,
    REDIS_URL: info.redisUrl,
    BUS_PREFIX: info.busPrefix,
    BUS_ENCRYPTION_KEY: busKey(info),
    STORAGE_DIR: info.storageDir,
    HEALTH_PORT: String(healthPort),
  };
  // A worker holds no database and signs no links: nothing of those reaches it.
  for (const name of [
    'DATABASE_URL',
    'VAULT_KEYRING',
    'VAULT_KEYRING_FILE',
    'ARTIFACT_LINK_SECRET',
    'PORT',
  ]) {
    delete env[name];
  }
  // detached: its own process group, so a terminal's Ctrl-C reaches only us and the worker gets
  // one SIGTERM (a second signal would force it); parent-watch.ts ends it if we die.
  const child = spawn(process.execPath, sourceServiceArguments('worker', { parentWatch: true }), {
    cwd: rootDir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { pid } = child;
  if (pid === undefined) fail('the worker did not start');
  writeInstanceRecord(settings.dataDir, {
    service: 'worker',
    pid,
    host: os.hostname(),
    healthUrl,
    startedBy: 'pnpm worker',
    startedAt: new Date().toISOString(),
  });

  for (const [stream, target] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    readline.createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (text) => {
      // On a terminal readable; piped, the JSON lines as they are.
      if (settings.output === 'terminal')
        output.line('worker', target === process.stdout ? 'stdout' : 'stderr', readableLine(text).text);
      else target.write(`${text}\n`);
    });
  }

  let stopping = false;
  let firstSignalAt: number | undefined;
  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    say(`${reason}: stopping the worker`);
    child.kill('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (firstSignalAt === undefined) {
        firstSignalAt = Date.now();
        stop(signal);
      } else if (Date.now() - firstSignalAt > SIGNAL_ECHO_MS) {
        say('second signal: killing the worker');
        child.kill('SIGKILL');
      }
    });
  }
  const watch = setInterval(() => {
    if (!isProcessAlive(info.pid)) stop(`the \`pnpm start\` it joined (launcher pid ${info.pid}) stopped`);
  }, LAUNCHER_CHECK_MS);

  const exited = new Promise<number>((resolve) => {
    child.once('close', (code, signal) => {
      clearInterval(watch);
      removeInstanceRecord(settings.dataDir, 'worker', pid);
      resolve(code ?? (signal === 'SIGTERM' && stopping ? 0 : 1));
    });
  });
  void waitUntilReady([{ name: 'worker', url: `${healthUrl}/readyz` }], {
    cancelled: () => stopping || child.exitCode !== null,
    report: () => say(`the worker is not ready yet (its own lines say why): ${healthUrl}/readyz`),
  }).then((ready) => {
    if (!ready) return;
    say(
      `worker ready (pid ${pid}), health ${healthUrl} (/healthz, /readyz, /metrics), on the platform of ` +
        `\`pnpm start\` (launcher pid ${info.pid}, BUS_PREFIX=${info.busPrefix}); Ctrl-C stops it`,
    );
  });
  const code = await exited;
  if (!stopping) say(`the worker exited on its own (exit code ${code})`);
  process.exit(code);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
