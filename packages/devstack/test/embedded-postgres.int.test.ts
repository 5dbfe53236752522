// The embedded PostgreSQL: first start initialises, later starts reuse the data, and what killed
// runs leave behind (stale postmaster.pid, orphaned server) does not stop the next start.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ensurePostgres, freePort, isProcessAlive, type PostgresHandle, pingPostgres } from '../src/index';

async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function postmasterPid(dataDir: string): number {
  return Number.parseInt(
    fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '',
    10,
  );
}

function parentOf(pid: number): number {
  const match = /^PPid:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1]);
}

describe('ensurePostgres (embedded)', () => {
  let root: string;
  let dataDir: string;
  let port: number;
  const handles: PostgresHandle[] = [];

  const start = async (): Promise<PostgresHandle> => {
    const handle = await ensurePostgres({ dataDir, port });
    handles.push(handle);
    return handle;
  };

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-pg-'));
    fs.chmodSync(root, 0o755); // as root, the server runs as the `postgres` user, which must traverse it
    dataDir = path.join(root, 'pg');
    port = await freePort();
  });

  afterAll(async () => {
    for (const handle of handles) await handle.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('initialises, answers on the capability_service database, and stops', async () => {
    const handle = await start();
    expect(handle.embedded).toBe(true);
    expect(handle.url).toBe(`postgres://postgres:postgres@127.0.0.1:${port}/capability_service`);
    expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    const [row] = await query(handle.url, 'SELECT current_database() AS db');
    expect(row?.db).toBe('capability_service');
    await query(handle.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$first run$$)');

    await handle.stop();
    expect(await pingPostgres(handle.url)).toBe(false);
    await handle.stop(); // a second stop is a no-op
  });

  it('reuses the data directory on the next start', async () => {
    const handle = await start();
    expect(await query(handle.url, 'SELECT v FROM kept')).toEqual([{ v: 'first run' }]);
    await handle.stop();
  });

  it('refuses a second server on a data directory that is in use', async () => {
    const handle = await start();
    await expect(ensurePostgres({ dataDir, port: await freePort() })).rejects.toThrow(/already running/);
    expect(await pingPostgres(handle.url)).toBe(true);
    await handle.stop();
  });

  it('refuses a port that is taken, saying so', async () => {
    const other = await ensurePostgres({ dataDir: path.join(root, 'other'), port: await freePort() });
    handles.push(other);
    const takenPort = Number(new URL(other.url).port);
    await expect(ensurePostgres({ dataDir, port: takenPort })).rejects.toThrow(`port ${takenPort}`);
    // An asked-for port is never silently replaced: the error names the setting to change.
    await expect(
      ensurePostgres({ dataDir, port: takenPort, portVariable: 'EMBEDDED_POSTGRES_PORT' }),
    ).rejects.toThrow('set EMBEDDED_POSTGRES_PORT to another port');
    await other.stop();
  });

  it('takes a free port when the default is taken, says which, and keeps it for that data directory', async () => {
    // Issue 23: a second Debian cluster on 5433 stopped `pnpm start`. The default is a free port
    // here (5433 itself may be in use on this machine), held by a listener like that cluster.
    const defaultPort = await freePort();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(defaultPort, '127.0.0.1', resolve));
    const moved = path.join(root, 'moved');
    let chosen: number;
    try {
      const first = await ensurePostgres({ dataDir: moved, defaultPort });
      handles.push(first);
      chosen = Number(new URL(first.url).port);
      expect(chosen).not.toBe(defaultPort);
      expect(first.portNote).toBe(
        `${defaultPort} is in use by another process: port ${chosen}, kept for this data directory`,
      );
      await first.stop();
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    // The default is free again, but this data directory keeps its port (its URL does not change).
    const second = await ensurePostgres({ dataDir: moved, defaultPort });
    handles.push(second);
    expect(Number(new URL(second.url).port)).toBe(chosen);
    expect(second.portNote).toBe(`port ${chosen}, kept for this data directory`);
    await second.stop();
    // A fresh data directory takes the default when it is free, and says nothing.
    const fresh = await ensurePostgres({ dataDir: path.join(root, 'fresh'), defaultPort });
    handles.push(fresh);
    expect(Number(new URL(fresh.url).port)).toBe(defaultPort);
    expect(fresh.portNote).toBeUndefined();
    await fresh.stop();
  });

  it('recovers from a stale postmaster.pid (dead pid, and a pid reused by another process)', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    expect(isProcessAlive(dead)).toBe(false);
    // PostgreSQL alone refuses to start while the pid in the file belongs to any live process.
    for (const pid of [dead, process.pid]) {
      fs.writeFileSync(path.join(dataDir, 'postmaster.pid'), `${pid}\n${dataDir}\n1700000000\n${port}\n`);
      const handle = await start();
      expect(postmasterPid(dataDir)).not.toBe(pid);
      expect(await query(handle.url, 'SELECT v FROM kept')).toEqual([{ v: 'first run' }]);
      await handle.stop();
    }
  });

  it('stops a server orphaned by a killed runner and starts a fresh one', async () => {
    const first = await start();
    const orphan = postmasterPid(dataDir);
    process.kill(parentOf(orphan), 'SIGKILL'); // the runner dies without stopping its server
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isProcessAlive(orphan)).toBe(true);

    const second = await start();
    expect(isProcessAlive(orphan)).toBe(false);
    expect(postmasterPid(dataDir)).not.toBe(orphan);
    expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'first run' }]);
    await first.stop(); // its runner is gone: nothing to do, must not hang or touch the new server
    expect(await pingPostgres(second.url)).toBe(true);
    await second.stop();
  });

  it('gives a clear error for wrong credentials, without the password', async () => {
    const handle = await start();
    const wrong = new URL(handle.url);
    wrong.password = 'not-the-password';
    const failure = ensurePostgres({ databaseUrl: wrong.toString(), dataDir });
    await expect(failure).rejects.toThrow(/refused the credentials: fix the user\/password in DATABASE_URL/);
    await expect(failure).rejects.not.toThrow(/not-the-password/);
    await handle.stop();
  });
});
