import { ServiceUnavailableError } from '@svc/errors';
import { memoryLogger } from '@svc/log';
import type { z } from 'zod';
import { pollUntil } from '../../testkit/src/poll';
import { type Bus, BusSealer, createBus, eventChannel, publishEvent, subscribeEvents } from '../src';
import { sealingContext } from '../src/sealing';
import { type TestCatalog, testCatalog } from './catalog';
import { busKeys, closedPortUrl, deletePrefix, redisUrl, sleep, uniquePrefix } from './helpers';

const prefix = uniquePrefix('events');
const { logger, lines } = memoryLogger();
let bus: Bus<TestCatalog>;

beforeAll(() => {
  bus = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
});

afterAll(async () => {
  await bus.close();
  await deletePrefix(prefix);
});

describe('events over Redis pub/sub', () => {
  it('fans one event out to every subscriber', async () => {
    const first: Array<z.output<TestCatalog['events']['catalog.changed']>> = [];
    const second: Array<z.output<TestCatalog['events']['catalog.changed']>> = [];
    const a = subscribeEvents(bus, { 'catalog.changed': (event) => void first.push(event) });
    const b = subscribeEvents(bus, { 'catalog.changed': (event) => void second.push(event) });
    try {
      await Promise.all([a.waitUntilReady(), b.waitUntilReady()]);
      const receivers = await publishEvent(bus, 'catalog.changed', { version: 'v2', changed_slugs: ['crt'] });
      expect(receivers).toBe(2);
      await pollUntil(() => first.length === 1 && second.length === 1);
      expect(first).toEqual([{ version: 'v2', changed_slugs: ['crt'] }]);
      expect(second).toEqual(first);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('logs and drops an invalid or unsealed payload, then keeps delivering', async () => {
    const received: Array<z.output<TestCatalog['events']['catalog.changed']>> = [];
    const subscription = subscribeEvents(bus, { 'catalog.changed': (event) => void received.push(event) });
    try {
      await subscription.waitUntilReady();
      const channel = eventChannel(prefix, 'catalog.changed');
      const sealer = new BusSealer(busKeys);
      const invalid = sealer.seal({ version: 7 }, sealingContext.event(prefix, channel));
      await bus.redis.publish(channel, JSON.stringify(invalid));
      // Not sealed (or sealed under another key): a process without the key cannot inject events.
      await bus.redis.publish(channel, JSON.stringify({ version: 'v9', changed_slugs: [] }));
      await bus.redis.publish(channel, 'not json');
      await publishEvent(bus, 'catalog.changed', { version: 'v3', changed_slugs: [] });
      await pollUntil(() => received.length === 1);
      await sleep(50);
      expect(received).toEqual([{ version: 'v3', changed_slugs: [] }]);
      const dropped = lines().filter((line) => String(line.msg).startsWith('event dropped'));
      expect(dropped.map((line) => line.msg)).toEqual([
        'event dropped: invalid payload',
        'event dropped: does not open',
        'event dropped: does not open',
      ]);
    } finally {
      await subscription.close();
    }
  });

  it('keeps delivering after a handler throws', async () => {
    let calls = 0;
    const subscription = subscribeEvents(bus, {
      'catalog.changed': () => {
        calls += 1;
        throw new Error('handler bug');
      },
    });
    try {
      await subscription.waitUntilReady();
      await publishEvent(bus, 'catalog.changed', { version: 'a', changed_slugs: [] });
      await publishEvent(bus, 'catalog.changed', { version: 'b', changed_slugs: [] });
      await pollUntil(() => calls === 2);
      expect(lines().some((line) => line.msg === 'event handler failed')).toBe(true);
    } finally {
      await subscription.close();
    }
  });

  it('refuses to publish an invalid payload', async () => {
    // @ts-expect-error version must be a string
    await expect(publishEvent(bus, 'catalog.changed', { version: 1, changed_slugs: [] })).rejects.toThrow(
      TypeError,
    );
  });

  it('does not deliver events of another prefix', async () => {
    const other = createBus({
      catalog: testCatalog,
      redisUrl,
      prefix: `${prefix}-other`,
      logger,
      encryptionKeys: busKeys,
    });
    const received: unknown[] = [];
    const subscription = subscribeEvents(other, { 'catalog.changed': (event) => void received.push(event) });
    try {
      await subscription.waitUntilReady();
      await publishEvent(bus, 'catalog.changed', { version: 'mine', changed_slugs: [] });
      await sleep(100);
      expect(received).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('publishing on a closed-port Redis fails fast with 503', async () => {
    const down = createBus({
      catalog: testCatalog,
      redisUrl: await closedPortUrl(),
      prefix,
      logger,
      encryptionKeys: busKeys,
    });
    try {
      const started = Date.now();
      await expect(
        publishEvent(down, 'catalog.changed', { version: 'x', changed_slugs: [] }),
      ).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await down.close();
    }
  });
});
