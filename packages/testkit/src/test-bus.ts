import { randomBytes } from 'node:crypto';
import { type Bus, type BusCatalog, createBus } from '@svc/bus';
import { type MessageCatalog, messageCatalog } from '@svc/capabilities';
import { createLogger } from '@svc/log';
import { deleteKeysWithPrefix } from './redis-cleanup';

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * The bus encryption key of this test process (32 random bytes, made once): every test stack passes
 * it to its services as BUS_ENCRYPTION_KEY and every test bus seals with it, so a suite's own bus
 * reads and writes what the stack's processes do.
 */
const TEST_BUS_KEY = randomBytes(32);

/** The keys a test's own bus must use to talk to a test stack (`createBus({ encryptionKeys })`). */
export function testBusEncryptionKeys(): readonly Uint8Array[] {
  return [TEST_BUS_KEY];
}

/** BUS_ENCRYPTION_KEY as the stack passes it to services (base64). */
export function testBusEncryptionKeyText(): string {
  return TEST_BUS_KEY.toString('base64');
}

/** The Redis integration suites use (set by jest/integration-setup.ts). */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;
}

export interface TestBus<C extends BusCatalog = MessageCatalog> {
  readonly bus: Bus<C>;
  readonly prefix: string;
  /** Closes the bus and deletes every key under the prefix. */
  close(): Promise<void>;
}

/**
 * A bus on the test Redis under a fresh prefix, so parallel suites never see each other's queues,
 * carrying the platform's message catalog (or `catalog`).
 */
export function createTestBus(label?: string): TestBus;
export function createTestBus<C extends BusCatalog>(label: string, catalog: C): TestBus<C>;
export function createTestBus(label = 't', catalog: BusCatalog = messageCatalog): TestBus<BusCatalog> {
  const prefix = `${label}${randomBytes(4).toString('hex')}`;
  const redisUrl = testRedisUrl();
  const bus = createBus({
    catalog,
    redisUrl,
    prefix,
    logger: createLogger({ service: `test-${label}`, level: 'silent' }),
    encryptionKeys: testBusEncryptionKeys(),
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
