import { randomBytes } from 'node:crypto';
import { memoryLogger } from '@svc/log';
import {
  type Bus,
  createBus,
  readServiceReadiness,
  SERVICE_PRESENCE_TTL_MS,
  serviceInstancesKey,
  servicePresence,
} from '../src';
import { testCatalog } from './catalog';
import { closedPortUrl, deletePrefix, redisUrl, uniquePrefix } from './helpers';

// Service instances reporting their readiness, and the gateway-side read of it, on the real Redis.

const prefix = uniquePrefix('presence');
const { logger } = memoryLogger();
let bus: Bus;

function newBus(url: string): Bus {
  return createBus({
    catalog: testCatalog,
    redisUrl: url,
    prefix,
    logger,
    encryptionKeys: [randomBytes(32)],
  });
}

beforeAll(() => {
  bus = newBus(redisUrl);
});

afterAll(async () => {
  await bus.close();
  await deletePrefix(prefix);
});

describe('service presence', () => {
  it('counts the instances that reported ready, drops one that reports not ready or withdraws, in one read', async () => {
    const first = servicePresence(bus, 'uploads', { instanceId: 'uploads-1' });
    const second = servicePresence(bus, 'uploads', { instanceId: 'uploads-2' });
    const wallet = servicePresence(bus, 'wallet', { instanceId: 'wallet-1' });
    await Promise.all([first.report(true), second.report(true), wallet.report(true)]);

    expect(await readServiceReadiness(bus, ['uploads', 'wallet', 'vault'])).toEqual({
      uploads: { ok: true, instances: 2 },
      wallet: { ok: true, instances: 1 },
      vault: {
        ok: false,
        instances: 0,
        error: 'no instance reported ready within 15 s (down, restarting, or failing its own checks)',
      },
    });

    // Its own checks failing: out at once, not after the TTL.
    await first.report(false);
    expect((await readServiceReadiness(bus, ['uploads'])).uploads).toEqual({ ok: true, instances: 1 });
    await second.withdraw();
    expect((await readServiceReadiness(bus, ['uploads'])).uploads).toMatchObject({ ok: false, instances: 0 });
    // Back: ready again at its next report.
    await first.report(true);
    expect((await readServiceReadiness(bus, ['uploads'])).uploads).toEqual({ ok: true, instances: 1 });
  });

  it('an instance that stops reporting (a crash) no longer counts once its report is older than the TTL', async () => {
    const reportedAt = Date.now();
    const crashed = servicePresence(bus, 'registry', { instanceId: 'registry-1', now: () => reportedAt });
    await crashed.report(true);
    // The read is made as of a later time: no waiting, the scores say when each report lapses.
    expect((await readServiceReadiness(bus, ['registry'], reportedAt + 1_000)).registry?.ok).toBe(true);
    expect(
      (await readServiceReadiness(bus, ['registry'], reportedAt + SERVICE_PRESENCE_TTL_MS)).registry,
    ).toMatchObject({ ok: false, instances: 0 });
    // The key expires with its last report: no stale keys pile up.
    const ttl = await bus.redis.pttl(serviceInstancesKey(prefix, 'registry'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(SERVICE_PRESENCE_TTL_MS);
  });

  it('fails, not hangs, while Redis is down (the gateway then leaves `services` out)', async () => {
    const down = newBus(await closedPortUrl());
    try {
      await expect(readServiceReadiness(down, ['uploads'])).rejects.toThrow();
      await expect(servicePresence(down, 'uploads').report(true)).rejects.toThrow();
    } finally {
      await down.close();
    }
  });
});
