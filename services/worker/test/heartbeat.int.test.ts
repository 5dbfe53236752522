import { capabilityWorkersKey, heldRunsKey, runtimeWorkersKey } from '@svc/contracts';
import { createTestBus, type TestBus } from '@svc/testkit';
import { countLiveWorkers, createWorkerPresence } from '../src/adapters/worker-presence';
import { type Heartbeat, startHeartbeat } from '../src/domain/heartbeat';

// The heartbeat's per-runtime sorted sets on a real Redis (own prefix): members scored by when
// their heartbeat lapses, dead members trimmed on each beat, ZREM on close.

const TTL_MS = 1_000;
const INTERVAL_MS = 100;
let testBus: TestBus;
const started: Heartbeat[] = [];

beforeAll(() => {
  testBus = createTestBus('hbt');
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((heartbeat) => heartbeat.close()));
});

afterAll(async () => {
  await testBus.close();
});

async function beat(
  workerId: string,
  runtimes: string[],
  now?: () => number,
  heldRuns?: () => readonly string[],
): Promise<Heartbeat> {
  const heartbeat = await startHeartbeat({
    presence: createWorkerPresence(testBus.bus),
    logger: testBus.bus.logger,
    workerId,
    runtimes,
    hostname: 'test-host',
    pid: 1,
    slots: { crt: 1 },
    ttlMs: TTL_MS,
    intervalMs: INTERVAL_MS,
    now,
    heldRuns,
  });
  started.push(heartbeat);
  return heartbeat;
}

const setKey = (runtime: string) => runtimeWorkersKey(testBus.prefix, runtime);
const redis = () => testBus.bus.redis;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('heartbeat: workers per runtime (sorted sets)', () => {
  it('adds the worker to the set of each runtime it serves, scored now + TTL', async () => {
    const before = Date.now();
    const heartbeat = await beat('w-a', ['node', 'browser']);
    await beat('w-b', ['node']);
    expect(heartbeat.runtimeSets).toEqual([setKey('node'), setKey('browser')]);
    expect(await redis().zrange(setKey('node'), '0', '-1')).toEqual(['w-a', 'w-b']);
    expect(await redis().zrange(setKey('browser'), '0', '-1')).toEqual(['w-a']);
    const score = Number(await redis().zscore(setKey('browser'), 'w-a'));
    expect(score).toBeGreaterThanOrEqual(before + TTL_MS);
    expect(score).toBeLessThanOrEqual(Date.now() + TTL_MS);
    expect(await countLiveWorkers(redis(), testBus.prefix, 'node')).toBe(2);
    expect(await countLiveWorkers(redis(), testBus.prefix, 'browser')).toBe(1);
    expect(await countLiveWorkers(redis(), testBus.prefix, 'python')).toBe(0);
  });

  it('refreshes its score on every beat', async () => {
    let clock = 1_000_000;
    await beat('w-clock', ['node'], () => clock);
    expect(Number(await redis().zscore(setKey('node'), 'w-clock'))).toBe(1_000_000 + TTL_MS);
    clock = 2_000_000;
    await sleep(INTERVAL_MS * 3);
    expect(Number(await redis().zscore(setKey('node'), 'w-clock'))).toBe(2_000_000 + TTL_MS);
  });

  it('trims members whose heartbeat lapsed (a worker that died without ZREM)', async () => {
    await redis().zadd(setKey('node'), Date.now() - 1, 'w-dead');
    expect(await countLiveWorkers(redis(), testBus.prefix, 'node')).toBe(0);
    await beat('w-live', ['node']);
    expect(await redis().zrange(setKey('node'), '0', '-1')).toEqual(['w-live']);
  });

  it('removes only its own member on close', async () => {
    const a = await beat('w-a', ['node']);
    await beat('w-b', ['node']);
    // In the set of each capability it serves too (its slots' keys: crt here), as a pool announces.
    expect(await redis().zrange(capabilityWorkersKey(testBus.prefix, 'crt'), '0', '-1')).toEqual([
      'w-a',
      'w-b',
    ]);
    await a.close();
    expect(await redis().zrange(setKey('node'), '0', '-1')).toEqual(['w-b']);
    expect(await redis().zrange(capabilityWorkersKey(testBus.prefix, 'crt'), '0', '-1')).toEqual(['w-b']);
    expect(await redis().exists(a.keys[0] ?? '')).toBe(0);
  });

  it('lets the set expire when no worker of the runtime beats any more', async () => {
    await beat('w-a', ['node']);
    const ttl = await redis().pttl(setKey('node'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(TTL_MS);
  });

  it('a lapsed score stops counting even before any trim (ZCOUNT from now)', async () => {
    let clock = Date.now();
    await beat('w-frozen', ['gpu'], () => clock);
    expect(await countLiveWorkers(redis(), testBus.prefix, 'gpu', clock)).toBe(1);
    clock += TTL_MS;
    expect(await countLiveWorkers(redis(), testBus.prefix, 'gpu', clock)).toBe(0);
  });
});

describe('heartbeat: runs held (claimed, not yet reported), issue 15', () => {
  it('announces the runs it holds, scored now + TTL, and drops them once released and lapsed', async () => {
    let clock = 5_000_000;
    const held = new Set(['run-a', 'run-b']);
    await beat(
      'w-holder',
      ['node'],
      () => clock,
      () => [...held],
    );
    const key = heldRunsKey(testBus.prefix);
    expect(await redis().zmscore(key, 'run-a', 'run-b', 'run-c')).toEqual([
      String(5_000_000 + TTL_MS),
      String(5_000_000 + TTL_MS),
      null,
    ]);
    // run-a is reported (released): no longer re-announced; its score lapses and a later beat trims it.
    held.delete('run-a');
    clock += TTL_MS + 1;
    await sleep(INTERVAL_MS * 3);
    expect(await redis().zrange(key, '0', '-1')).toEqual(['run-b']);
    expect(Number(await redis().zscore(key, 'run-b'))).toBe(clock + TTL_MS);
  });
});
