import { Client } from 'pg';
import { countKeysWithPrefix, startTestStack, type TestStack } from '../src';

// Smoke test of the harness itself: a real gateway and registry as child processes on a private
// database and bus prefix; a registry killed and restarted; close() leaves nothing behind.
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** True while a process with this pid exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('startTestStack', () => {
  let stack: TestStack;
  /** pid of the registry replica started below; close() must end it too. */
  let replicaPid: number | undefined;

  beforeAll(async () => {
    // ms: a short RPC timeout, so the request made while the registry is down fails fast.
    stack = await startTestStack({ services: ['gateway', 'registry'], env: { RPC_TIMEOUT_MS: '1000' } });
  }, 90_000);

  afterAll(() => stack?.close());

  it('runs a ready gateway on a private database and bus prefix', async () => {
    expect(stack.prefix).toMatch(/^t[0-9a-f]{12}$/);
    expect(new URL(stack.databaseUrl).pathname).toMatch(/^\/t_[0-9a-f]{12}$/);
    const health = await stack.fetch('/healthz');
    expect(health.status).toBe(200);
    const ready = await stack.fetch('/readyz');
    expect(ready.status).toBe(200);
    expect(stack.logs('gateway')).toContain('"msg":"listening"');
  });

  it('serves the catalog through the registry process', async () => {
    const response = await stack.fetch('/api/capabilities?q=certificate+transparency');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ ok: true });
    expect(JSON.stringify(response.json)).toContain('"slug":"crt"');
  });

  it('creates API keys that the gateway accepts', async () => {
    const key = await stack.createApiKey({
      scopes: ['billing:read'],
      clientName: 'smoke',
      balanceUsd: '12.5',
    });
    expect(key.apiKey).toMatch(/^svc_live_/);
    const whoami = await stack.fetch('/api/account/whoami', { apiKey: key.apiKey });
    expect(whoami.status).toBe(200);
    expect(whoami.json).toMatchObject({ ok: true, client_id: key.clientId, client_name: 'smoke' });
    const anonymous = await stack.fetch('/api/account/whoami');
    expect(anonymous.status).toBe(401);
  });

  it('kills and restarts a service', async () => {
    const firstLogs = stack.logs('registry');
    const firstPid = stack.pid('registry');
    await stack.kill('registry');
    expect(stack.pid('registry')).toBeUndefined();
    expect(firstPid !== undefined && alive(firstPid)).toBe(false);
    // A query the gateway has not cached must go to the (dead) registry: 503 within RPC_TIMEOUT_MS.
    const down = await stack.fetch('/api/capabilities?q=domain');
    expect(down.status).toBe(503);

    await stack.start('registry');
    expect(stack.pid('registry')).not.toBe(firstPid);
    const up = await stack.fetch('/api/capabilities?q=hostnames');
    expect(up.status).toBe(200);
    // logs() keeps the first run's output and adds the second's.
    expect(stack.logs('registry').startsWith(firstLogs)).toBe(true);
    expect(stack.logs('registry').length).toBeGreaterThan(firstLogs.length);
  });

  it('stop() returns the exit code of a graceful shutdown', async () => {
    expect(await stack.stop('registry')).toBe(0);
    await stack.start('registry');
  });

  it('startReplica() runs one more process of a service, on its own health port', async () => {
    await expect(stack.startReplica('gateway')).rejects.toThrow(/gateway cannot be replicated/);
    const replica = await stack.startReplica('registry');
    replicaPid = replica.pid;
    expect(replicaPid).toBeDefined();
    expect(replicaPid).not.toBe(stack.pid('registry'));
    expect(replica.healthUrl).not.toBe(stack.healthUrl('registry'));
    const ready = await fetch(`${replica.healthUrl}/readyz`);
    expect(ready.status).toBe(200);
    // Same env as the first registry: same bus prefix, so both serve the gateway's RPCs.
    expect(await stack.stop('registry')).toBe(0);
    const served = await stack.fetch('/api/capabilities?q=subdomains');
    expect(served.status).toBe(200);
    await stack.start('registry');
  });

  it('close() leaves no process, database or Redis key behind', async () => {
    const databaseName = new URL(stack.databaseUrl).pathname.slice(1);
    const pids = [stack.pid('gateway'), stack.pid('registry'), replicaPid].filter((pid) => pid !== undefined);
    expect(pids).toHaveLength(3);
    expect(pids.filter(alive)).toHaveLength(3);
    expect(await databaseExists(databaseName)).toBe(true);
    expect(await countKeysWithPrefix(stack.redisUrl, stack.prefix)).toBeGreaterThan(0);

    await stack.close();

    expect(pids.filter(alive)).toEqual([]);
    expect(await databaseExists(databaseName)).toBe(false);
    expect(await countKeysWithPrefix(stack.redisUrl, stack.prefix)).toBe(0);
  });
});

describe('startTestStack failures', () => {
  it('rejects with the output of a service that cannot start', async () => {
    const started = startTestStack({ services: ['registry'], env: { BUS_PREFIX: 'NOT A PREFIX' } });
    await expect(started).rejects.toThrow(/registry exited \(exit code 1\)[\s\S]*BUS_PREFIX/);
  }, 60_000);
});

describe('a service that crashes during a test', () => {
  it('has its output printed by close()', async () => {
    const stack = await startTestStack({ services: ['registry'] });
    const printed: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      const pid = stack.pid('registry');
      if (pid === undefined) throw new Error('registry has no pid');
      process.kill(pid, 'SIGKILL'); // from outside the harness: a crash as far as it knows
      const deadline = Date.now() + 5_000;
      while (stack.pid('registry') !== undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await stack.close();
    } finally {
      write.mockRestore();
    }
    const report = printed.join('');
    expect(report).toContain('registry exited unexpectedly (signal SIGKILL)');
    expect(report).toContain('"msg":"listening"'); // the service's own output is quoted
  }, 60_000);
});
