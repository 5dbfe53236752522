import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedTestStack } from '../src';
import { SHARED_STACK_DIR_ENV, type SharedStackState, sharedStackPaths } from '../src/shared-stack-files';

// How a suite sees the shared platform's run directory (shared-stack.ts), without starting one: each
// test writes the files the daemon would write, and an existing `lock` means "someone else starts it".

const STATE: SharedStackState = {
  gatewayUrl: 'http://127.0.0.1:9',
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/t_000000000000',
  redisUrl: 'redis://127.0.0.1:6379',
  prefix: 't000000000000',
  storageDir: '/nonexistent',
  busEncryptionKey: Buffer.alloc(32, 1).toString('base64'),
  fakeCtUrl: 'http://127.0.0.1:12',
  healthUrls: { gateway: 'http://127.0.0.1:10', worker: 'http://127.0.0.1:11' },
  pids: { gateway: 101, worker: 102 },
};

/** A pid that no process has any more: a child that already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid ?? 0;
}

describe('sharedTestStack()', () => {
  const saved = process.env[SHARED_STACK_DIR_ENV];
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shared-stack-test-'));
    process.env[SHARED_STACK_DIR_ENV] = dir;
    writeFileSync(sharedStackPaths(dir).lock, '');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env[SHARED_STACK_DIR_ENV];
    else process.env[SHARED_STACK_DIR_ENV] = saved;
  });

  it('names the setup it needs when jest did not make a run directory', async () => {
    delete process.env[SHARED_STACK_DIR_ENV];
    await expect(sharedTestStack()).rejects.toThrow(/SVC_SHARED_STACK_DIR.*integration-setup/);
  });

  it('fails with the daemon’s reason when the platform did not start', async () => {
    writeFileSync(sharedStackPaths(dir).failed, 'the shared test stack did not start:\nregistry exited');
    await expect(sharedTestStack()).rejects.toThrow(/did not start:\nregistry exited/);
  });

  it('fails, quoting its log, when the daemon died before the platform was ready', async () => {
    const paths = sharedStackPaths(dir);
    const pid = deadPid();
    writeFileSync(paths.daemonPid, String(pid));
    writeFileSync(paths.daemonLog, 'starting\nout of memory\n');
    await expect(sharedTestStack()).rejects.toThrow(
      new RegExp(`daemon \\(pid ${pid}\\) exited:\\nstarting\\nout of memory`),
    );
  });

  it('attaches to a ready platform: its addresses, pids, health URLs and service logs', async () => {
    const paths = sharedStackPaths(dir);
    writeFileSync(paths.daemonPid, String(process.pid)); // alive
    writeFileSync(paths.state, JSON.stringify(STATE));
    writeFileSync(join(paths.logDir, 'gateway.log'), '{"msg":"listening"}\n');
    const stack = await sharedTestStack();
    expect(stack.gatewayUrl).toBe(STATE.gatewayUrl);
    expect(stack.prefix).toBe(STATE.prefix);
    expect(stack.busEncryptionKeys).toEqual([Buffer.alloc(32, 1)]);
    expect(stack.pid('worker')).toBe(102);
    expect(stack.healthUrl('gateway')).toBe('http://127.0.0.1:10');
    expect(() => stack.healthUrl('vault')).toThrow(/vault is not part of the shared test stack/);
    expect(stack.logs('gateway')).toContain('listening');
    expect(stack.logs('worker')).toBe('');
    await stack.close();
  });

  it('fails every request with the crashed service’s output once one has exited', async () => {
    const paths = sharedStackPaths(dir);
    writeFileSync(paths.daemonPid, String(process.pid));
    writeFileSync(paths.state, JSON.stringify(STATE));
    const stack = await sharedTestStack();
    writeFileSync(paths.crashed, "the shared test stack's worker exited; its output:\nboom");
    await expect(stack.fetch('/healthz')).rejects.toThrow(/worker exited; its output:\nboom/);
    await expect(stack.createApiKey({ scopes: [] })).rejects.toThrow(/worker exited/);
    expect(stack.pid('worker')).toBeUndefined();
  });

  it('fails every request once the daemon itself is gone', async () => {
    const paths = sharedStackPaths(dir);
    writeFileSync(paths.state, JSON.stringify(STATE));
    writeFileSync(paths.daemonPid, String(process.pid));
    const stack = await sharedTestStack();
    const pid = deadPid();
    writeFileSync(paths.daemonPid, String(pid));
    await expect(stack.fetch('/healthz')).rejects.toThrow(new RegExp(`daemon \\(pid ${pid}\\) is gone`));
  });
});
