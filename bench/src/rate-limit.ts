// Issue 13's limiter cost: the same route with and without the gateway's rate limiter, in one run,
// each server in its own process (limiter-server.ts), rows interleaved (plain, limited, plain,
// limited) so a machine that slows down during the run weighs on both alike. The limiter's Redis is
// a private redis-server, so its INFO counts only the limiter's commands: the bench prints how many
// one limited request costs (the issue: at most one round trip). Then the real gateway (limiter on
// every request; RATE_LIMIT_MULTIPLIER 1000000 so nothing is refused) on a cached describe.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureRedis, freePort } from '@svc/devstack';
import { type ChildServer, startChildServer } from './child-server';
import { type LoadOptions, type LoadResult, measure } from './load';
import { formatTable } from './report';
import { startBenchStack } from './stack-start';

// Sequential requests for the command count: enough that a one-off (a script load) rounds away.
const COUNTED_REQUESTS = 500;

async function startLimiterServer(
  limited: boolean,
  redisUrl: string,
): Promise<{ url: string; server: ChildServer }> {
  const server = await startChildServer('limiter-server.ts', {
    RATE_LIMITED: limited ? '1' : '0',
    REDIS_URL: redisUrl,
    BUS_PREFIX: 'bench',
  });
  const { port } = server.announced;
  if (typeof port !== 'number') throw new Error('limiter-server did not announce its port');
  return { url: `http://127.0.0.1:${port}`, server };
}

async function redisCommands(url: string): Promise<Map<string, number>> {
  const body: unknown = await (await fetch(`${url}/redis-commands`)).json();
  if (typeof body !== 'object' || body === null)
    throw new Error('limiter-server did not report its Redis commands');
  return new Map(
    Object.entries(body).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
  );
}

/**
 * Redis work per limited request over COUNTED_REQUESTS sequential requests: calls per command, and
 * round trips (commands the client sent: EVALSHA/EVAL; SET, INCRBY and PTTL run inside the script).
 */
async function redisWorkPerRequest(limitedUrl: string): Promise<{ roundTrips: number; perCommand: string }> {
  const before = await redisCommands(limitedUrl);
  for (let i = 0; i < COUNTED_REQUESTS; i += 1) await (await fetch(`${limitedUrl}/hello`)).arrayBuffer();
  const after = await redisCommands(limitedUrl);
  const perRequest = new Map<string, number>();
  for (const [command, calls] of after) {
    // The INFO that took `before` is counted in `after`.
    const delta = calls - (before.get(command) ?? 0) - (command === 'info' ? 1 : 0);
    if (delta > 0) perRequest.set(command, delta / COUNTED_REQUESTS);
  }
  const roundTrips = (perRequest.get('evalsha') ?? 0) + (perRequest.get('eval') ?? 0);
  const perCommand = [...perRequest].map(([command, n]) => `${command} ${n.toFixed(3)}`).join(', ');
  return { roundTrips, perCommand };
}

function averaged(name: string, runs: readonly LoadResult[]): LoadResult {
  const [first] = runs;
  if (first === undefined) throw new Error('no runs');
  const mean = (pick: (r: LoadResult) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
  return {
    ...first,
    name,
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p50Ms: mean((r) => r.p50Ms),
    p99Ms: mean((r) => r.p99Ms),
    meanMs: mean((r) => r.meanMs),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

export async function benchRateLimit(options: LoadOptions): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-limiter-redis-'));
  const redis = await ensureRedis({ redisUrl: `redis://127.0.0.1:${await freePort()}`, dataDir });
  const plain = await startLimiterServer(false, redis.url);
  const limited = await startLimiterServer(true, redis.url);
  const stack = await startBenchStack({
    services: ['gateway', 'registry', 'wallet'],
    // The multiplier keeps every budget out of reach of one machine.
    env: { RATE_LIMIT_MULTIPLIER: '1000000' },
  });
  try {
    const plainRuns: LoadResult[] = [];
    const limitedRuns: LoadResult[] = [];
    for (let round = 0; round < 2; round += 1) {
      plainRuns.push(await measure({ name: 'plain', url: `${plain.url}/hello` }, options));
      limitedRuns.push(await measure({ name: 'limited', url: `${limited.url}/hello` }, options));
    }
    const baseline = averaged('express+helmet /hello, no limiter', plainRuns);
    const withLimiter = averaged('express+helmet /hello + gateway limiter', limitedRuns);
    const gateway = await measure(
      {
        name: 'gateway describe crt (cache hit, limiter on)',
        url: `${stack.gatewayUrl}/api/capabilities/crt`,
      },
      options,
    );
    const redisWork = await redisWorkPerRequest(limited.url);
    console.log(
      `\nrate limiter (${options.connections} connections, 2 × ${options.durationSeconds} s per limiter row)\n` +
        `${formatTable([baseline, withLimiter, gateway], baseline)}\n` +
        `limiter cost: ${(withLimiter.meanMs - baseline.meanMs).toFixed(2)} ms mean latency per request at this concurrency\n` +
        `Redis round trips per limited request (${COUNTED_REQUESTS} sequential): ${redisWork.roundTrips.toFixed(3)} ` +
        `(commands: ${redisWork.perCommand})\n`,
    );
  } finally {
    await Promise.allSettled([plain.server.stop(), limited.server.stop(), stack.close()]);
    await redis.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
