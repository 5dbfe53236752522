import { randomBytes } from 'node:crypto';
import { type Bus, createBus } from '@svc/bus';
import { createLogger } from '@svc/log';
import { deleteKeysWithPrefix } from './redis-cleanup';

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** The Redis integration suites use (set by jest/integration-setup.ts). */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;
}

export interface TestBus {
  readonly bus: Bus;
  readonly prefix: string;
  /** Closes the bus and deletes every key under the prefix. */
  close(): Promise<void>;
}

/** A bus on the test Redis under a fresh prefix, so parallel suites never see each other's queues. */
export function createTestBus(label = 't'): TestBus {
  const prefix = `${label}${randomBytes(4).toString('hex')}`;
  const redisUrl = testRedisUrl();
  const bus = createBus({
    redisUrl,
    prefix,
    logger: createLogger({ service: `test-${label}`, level: 'silent' }),
  });
  return {
    bus,
    prefix,
    async close() {
      await bus.close();
      await deleteKeysWithPrefix(redisUrl, prefix);
    },
  };
}
